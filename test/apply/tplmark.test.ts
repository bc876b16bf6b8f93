// Markers in template comment syntaxes (docs/apply.md, "Template comments as markers"): JSP / ASP.NET
// `<%-- … --%>`, ERB `<%# … %>`, Handlebars `{{!-- … --}}` / `{{! … }}`, Blade `{{-- … --}}`, Jinja /
// Django / Twig `{# … #}`, Razor `@* … *@`. Before, such a marker line was merged as text (26u php03 and
// probes-removz blade01: a Blade `{{-- ... --}}`; php03 lost code in large). A Handlebars block closer
// (`{{/if}}`) is weak like a closing tag, so a new block's closer does not anchor on an old block's.
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';
import { commentBody } from '../../src/apply/markers.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('markers in template comment syntaxes (tplmark)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('reads the body of each template comment form, and no template expression as a comment', () => {
    for (const line of ['<%-- ... existing code ... --%>', '<%# ... existing code ... %>', '{{!-- ... existing code ... --}}', '{{-- ... existing code ... --}}', '{# ... existing code ... #}', '@* ... existing code ... *@']) expect(commentBody(line), line).toBe('... existing code ...');
    for (const line of ['{{ user.name }}', '{% block content %}', '{#if open}', '<%= link_to "Show", product %>']) expect(commentBody(line), line).toBeNull();
  });

  it('merges Blade edits whose marker is a Blade comment (26u php03, probes-removz blade01)', () => {
    mergedCase(caseDir('external-2026-11-26u', 'php03-'));
    mergedCase('probes-removz/blade01-footnote-deleted-after-table');
  });

  it('merges Jinja, JSP, ERB and Handlebars edits whose markers are template comments (probes-tplmark)', () => {
    for (const c of ['jinja01-django-template-block-marker', 'jsp01-jsp-comment-markers', 'erb01-erb-comment-marker', 'hbs01-handlebars-block-comment-marker']) mergedCase(`probes-tplmark/${c}`);
  });
});
