// Branch `perfx` (docs/apply.md): the merge's passes share one split per text, and one closing-tag
// pattern serves every pass.
// - splitLines keeps its recent splits: passes asking again for a text get its rows back, not a new
//   split (a 10,000-line merge split its original and output some thirty times). Each call still
//   gets its own Lines object: renamed-heads.ts tells segments apart by identity, and two segments of
//   one text (28bm java01, probe usesx2 c01) are two segments.
// - CLOSING_TAG_LINE (lines.ts) is the one closing-tag pattern: namespaced names (`</xsl:template>`)
//   and a fragment's `</>` are closing tags for isWeak as for copied-sibling.ts and new-block-closers.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { CLOSING_TAG_LINE, isWeak, splitLines } from '../../src/apply/lines.js';
import { markerLines } from '../../src/apply/markers.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { caseDir, mergedCase } from './bench-case.js';

describe('one split per text (perfx)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('a text split again shares its rows, in a Lines object of its own', () => {
    const text = 'def f():\r\n    return 1\r\n\r\nx = f()\n';
    const a = splitLines(text);
    const b = splitLines(text);
    expect(b.norm).toBe(a.norm);
    expect(b.text).toBe(a.text);
    expect(b).not.toBe(a);
    expect(b).toEqual(a);
  });

  it('another text, even one differing only in its terminators, gets its own split', () => {
    const a = splitLines('a\nb\n');
    const b = splitLines('a\r\nb\r\n');
    expect(b.text).not.toBe(a.text);
    expect(b.eol).toEqual(['\r\n', '\r\n']);
    expect(splitLines('a\nb\n').eol).toEqual(['\n', '\n']);
  });

  it('a split pushed out by newer ones is made again, equal to the first', () => {
    const first = splitLines('kept = 1\n');
    for (let i = 0; i < 20; i++) splitLines(`other${i}\n`);
    const again = splitLines('kept = 1\n');
    expect(again.text).not.toBe(first.text);
    expect(again).toEqual(first);
  });

  it('marker lines judged against one original twice agree with a fresh original', () => {
    const orig = splitLines('def f():\n    ...\n\nx = 1\n').text;
    const upd = ['def f():', '    ...', '...', 'x = 2'];
    expect(markerLines(upd, orig)).toEqual(markerLines(upd, [...orig]));
    expect(markerLines(upd, orig)).toEqual([false, false, true, false]);
  });

  it('two segments of the same text stay two segments (28bm java01, probe usesx2 c01)', () => {
    mergedCase(caseDir('external-2026-11-28bm', 'java01-'));
    mergedCase('probes-usesx2/c01-new-command-switch-arms-end-alike');
  });
});

describe('one closing-tag pattern (perfx)', () => {
  it('namespaced and dotted closing tags are closing tags, and weak', () => {
    for (const t of ['</xsl:template>', '</soap:Body>', '</c:forEach>', '</svelte:head>', '</Grid.RowDefinitions>', '</div>']) {
      expect(CLOSING_TAG_LINE.test(t), t).toBe(true);
      expect(isWeak(t), t).toBe(true);
    }
  });

  it('a fragment closer is one, its name empty; an opening or self-closing tag, or two closers, is not', () => {
    expect(CLOSING_TAG_LINE.exec('</>')?.[1]).toBe('');
    expect(CLOSING_TAG_LINE.exec('</xsl:template>')?.[1]).toBe('xsl:template');
    for (const t of ['<xsl:template match="/">', '<br/>', '</td></tr>', '</ div>']) expect(CLOSING_TAG_LINE.test(t), t).toBe(false);
  });

  it('probes: edits beside namespaced, dotted and fragment closing tags', () => {
    for (const name of ['xml01-xslt-new-template-before-namespaced-closer', 'jsp01-column-added-in-namespaced-loop', 'jsx01-element-before-fragment-closer', 'xaml01-row-and-status-bar-added', 'svelte01-meta-before-namespaced-head-closer', 'vue01-template-and-style-edited-script-left-out', 'py01-crlf-original-lf-update']) {
      mergedCase(`probes-perfx/${name}`);
    }
  });
});
