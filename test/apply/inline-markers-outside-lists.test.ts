// Inline markers outside a line's brackets (line-elision.ts), comment elements that name what they
// stand for without dots, a marker past the list's last element that stands for nothing, and the
// line among several with the same head whose list holds the shown elements (inline-markers.ts).
// Inputs are new and in other languages than the sets' cases that revealed each class.
import { describe, expect, it } from 'vitest';
import { isMarkerElement } from '../../src/apply/inline-elements.js';
import { expandInlineMarkers } from '../../src/apply/inline-markers.js';
import { expandElision, lineElision } from '../../src/apply/line-elision.js';

describe('lineElision', () => {
  it('finds one marker token outside brackets and quotes, with the text before it', () => {
    expect(lineElision('brew install ... ripgrep')).toEqual({ head: 'brew install ', tail: ' ripgrep', marker: '...' });
    expect(lineElision('call(a, ..., b)')).toBeNull(); // inside brackets: the list reading's
    expect(lineElision('echo "a ... b" ... c')).toEqual({ head: 'echo "a ... b" ', tail: ' c', marker: '...' });
    expect(lineElision('x = a ... b ... c')).toBeNull(); // two markers: not certain
    expect(lineElision('... tail')).toBeNull(); // nothing before it names a line
  });
});

describe('expandElision', () => {
  it('keeps an ending both share last and adds before it (a shell continuation)', () => {
    const e = lineElision('gem install ... rubocop \\')!;
    expect(expandElision(e, 'gem install bundler rake \\')).toBe('gem install bundler rake rubocop \\');
  });
  it('joins where the shown elements begin with the original last ones', () => {
    const e = lineElision("VALUES (1, 'a'), /* ... */, (3, 'c'), (4, 'd');")!;
    expect(expandElision(e, "VALUES (1, 'a'), (2, 'b'), (3, 'c');")).toBe("VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');");
  });
  it('keeps closing punctuation glued to the last element last', () => {
    const e = lineElision('when :draft, ..., :archived then')!;
    expect(expandElision(e, 'when :draft, :review then')).toBe('when :draft, :review, :archived then');
  });
  it('refuses when a shown word is already among the elided ones (an edit or a repeat)', () => {
    const e = lineElision('deps: ... kotlin-stdlib okhttp')!;
    expect(expandElision(e, 'deps: okhttp retrofit')).toBeNull();
  });
});

describe('expandInlineMarkers outside lists', () => {
  it('expands a word list in a command line from the one original line it names', () => {
    const code = "<?php\n$cmd = 'composer require';\nexec('composer require laravel/sanctum guzzlehttp/guzzle');\n";
    // Where no original line starts with the text before the marker (the command sits in a call), nothing is expanded.
    const shell = 'set -e\ncomposer require laravel/sanctum guzzlehttp/guzzle\nphp artisan migrate\n';
    expect(expandInlineMarkers('composer require ... spatie/laravel-permission\n', shell)).toBe('composer require laravel/sanctum guzzlehttp/guzzle spatie/laravel-permission\n');
    expect(expandInlineMarkers('composer require ... spatie/laravel-permission\n', code)).toBe('composer require ... spatie/laravel-permission\n');
  });
  it('leaves the line when the original writes the marker token as code', () => {
    const code = 'def stub(*args): ...\nALL = one two three\n';
    expect(expandInlineMarkers('ALL = one ... four\n', code)).toBe('ALL = one ... four\n');
  });
});

describe('comment elements that name what they stand for', () => {
  it('reads `/* other locales */` as a marker only as a whole element', () => {
    expect(isMarkerElement('/* existing roles */')).toBe(true);
    expect(isMarkerElement('/* the rest of the args */')).toBe(true);
    expect(isMarkerElement('/* deprecated */')).toBe(false);
    expect(isMarkerElement('/* existing roles are loaded from the database on boot */')).toBe(false);
    const code = 'val roles = listOf("admin", "editor", "viewer")\n';
    expect(expandInlineMarkers('val roles = listOf("admin", /* existing roles */, "auditor")\n', code)).toBe('val roles = listOf("admin", "editor", "viewer", "auditor")\n');
  });
});

describe('a marker that stands for nothing at a list edge', () => {
  it('goes with its separator when the original list has no more elements', () => {
    const code = 'resources:\n  limits: { cpu: "500m" }\n';
    expect(expandInlineMarkers('  limits: { cpu: "1", ... }\n', code)).toBe('  limits: { cpu: "1" }\n');
  });
  it('still refuses a marker between two shown neighbours that stands for nothing', () => {
    const code = 'defp allowed, do: [:get, :post]\n';
    expect(expandInlineMarkers('defp allowed, do: [:get, ..., :post, :put]\n', code)).toBe('defp allowed, do: [:get, ..., :post, :put]\n');
  });
});

describe('the line whose list holds the shown elements', () => {
  it('picks it among lines of the same head that nothing else tells apart', () => {
    const code = 'import { Button } from "./button";\nimport { Card, CardBody, CardTitle } from "./card";\nimport { Modal } from "./modal";\n';
    expect(expandInlineMarkers('import { Card, CardFooter, /* ... */ } from "./card";\n', code)).toBe('import { Card, CardFooter, CardBody, CardTitle } from "./card";\n');
  });
});

describe('several equal-headed list lines with the same shown elements', () => {
  it('takes the one whose original lines just above are the update lines above it', () => {
    const code = ['products:', '  - name: cli', '    kind: bin', 'targets:', '  - name: core', '    kind: lib', '    deps: [a, b]', '  - name: cli', '    kind: bin', '    deps: [a, c]', ''].join('\n');
    const update = 'targets:\n  # ...\n  - name: cli\n    kind: bin\n    deps: [a, /* ... */, d]\n';
    expect(expandInlineMarkers(update, code)).toBe('targets:\n  # ...\n  - name: cli\n    kind: bin\n    deps: [a, c, d]\n');
  });
  it('reads a marker comment glued to an element apart from it when matching shown elements', () => {
    const code = 'val a = listOf(1, 2)\nval deps = listOf(core, net, log)\nval b = listOf(3)\n';
    expect(expandInlineMarkers('val deps = listOf(core, /* ... */ log, trace)\n', code.replace('val a = listOf(1, 2)', 'val deps = listOf(core, ui)'))).toBe('val deps = listOf(core, net, log, trace)\n');
  });
});
