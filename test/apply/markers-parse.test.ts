// Marker detection (every comment syntax, and the look-alikes that are not markers), message
// parsing (tags, newlines, code containing tag-like text), and the confidence signal.
import { describe, expect, it } from 'vitest';
import { isMarkerLine, markerLines } from '../../src/apply/markers.js';
import { parseApplyContent } from '../../src/apply/parse.js';
import { mergeApply } from '../../src/apply/merge.js';

const none = new Set<string>();

describe('marker lines', () => {
  it('accepts the marker in every comment syntax, with or without words, any case', () => {
    for (const line of [
      '// ... existing code ...', '  // ... existing code ...', '//... existing code ...', '// ...',
      '# ... existing code here ...', '# ...rest of the file...', '-- ... existing code ...',
      '<!-- ... existing code ... -->', '/* ... existing code ... */', '{/* ... existing code ... */}',
      '; ... existing code ...', ';; ... existing code ...', '% ... existing code ...', '{- ... existing code ... -}',
      '// ... Existing Code ...', '// ... keep calculateTotal ...', '// rest of file unchanged', '# Existing code here',
      '// ... rest of the component ...', '...', '…', '(* ... existing code ... *)', '// existing code...',
      '# [rest unchanged]', '<!-- rest of README unchanged -->', '// other methods omitted', '-- (rest of the schema unchanged)',
    ]) {
      expect(isMarkerLine(line, none), line).toBe(true);
    }
  });

  it('rejects code and prose that only look like markers', () => {
    for (const line of [
      'const x = { ...prev, y };', 'return [...items, item];', 'fn(...args);', '...spread,', '#include <stdio.h>',
      '// TODO: handle the error case properly', '# compute the totals for each row', '---', '-- Create the users table',
      'x = 1  # ... existing code ...', '<!-- navigation -->', '/* keep in sync with server.ts */', '// note: this runs before main()',
      '# [deprecated]', '// rest the connection before retrying', '# leave unchanged',
    ]) {
      expect(isMarkerLine(line, none), line).toBe(false);
    }
  });

  it('accepts notes that name what they stand for (marker-wordings.ts), not imperatives or sentences', () => {
    for (const line of [
      '# (concurrency and jobs unchanged)', '// (unchanged: SYMBOLS, formatMoney, addMoney)', '/* snip: remaining handlers are the same */',
      '// [remaining methods omitted for brevity]', '# ... [[bin]] unchanged ...', '/* unchanged lookup */', '-- (indexes elided)',
      '<!-- unchanged up to the status filter -->', '# ... inside StatementImporter.load ...', '// ... inside .sidebar__item ...',
    ]) expect(isMarkerLine(line, none), line).toBe(true);
    for (const line of [
      '// unchanged if the cache is warm', '// returns the same value', '# keep the order unchanged', '// Note: ids stay the same',
      '/* x = y; unchanged */', '// ... x = f(y); ...', '// unchanged because the parser already trims it and the caller relies on it here',
    ]) expect(isMarkerLine(line, none), line).toBe(false);
  });

  it('treats a line that is in the original as content, not a marker', () => {
    expect(isMarkerLine('...', new Set(['...']))).toBe(false);
    expect(isMarkerLine('// ... and so on', new Set(['// ... and so on']))).toBe(false);
  });
});

describe('marker lines of an update', () => {
  it('takes a bare ... the original has only at another indentation as a marker, unless it is a block body', () => {
    const original = ['class P(Protocol):', '    def get(self) -> int:', '        ...', '', 'def run():', '    return 1'];
    expect(markerLines(['...', 'def run():', '    return 2', '...'], original)).toEqual([true, false, false, true]);
    expect(markerLines(['        ...'], original)).toEqual([false]);
    expect(markerLines(['def put(self):', '    ...'], original)).toEqual([false, false]);
  });
});

describe('message parsing', () => {
  it('reads instruction, code and update and strips the newline after each opening tag', () => {
    const r = parseApplyContent('<instruction>I will add x.</instruction>\n<code>\na\nb\n</code>\n<update>\n// ... existing code ...\nb\n</update>');
    expect(r).toEqual({ ok: true, input: { instruction: 'I will add x.', code: 'a\nb\n', update: '// ... existing code ...\nb' } });
  });

  it('keeps the original without a final newline when the tag closes right after the code', () => {
    const r = parseApplyContent('<code>a\nb</code>\n<update>b</update>');
    expect(r.ok && r.input.code).toBe('a\nb');
  });

  it('allows HTML code that itself contains <code> elements', () => {
    const html = '<p>Use <code>npm</code> here</p>\n';
    const r = parseApplyContent(`<code>${html}</code>\n<update><p>Use <code>pnpm</code> here</p></update>`);
    expect(r.ok && r.input.code).toBe(html);
    expect(r.ok && r.input.update).toBe('<p>Use <code>pnpm</code> here</p>');
  });

  it('names the missing tag', () => {
    expect(parseApplyContent('<update>x</update>')).toMatchObject({ ok: false, message: expect.stringMatching(/<code>/) });
    expect(parseApplyContent('<code>x</code>')).toMatchObject({ ok: false, message: expect.stringMatching(/<update>/) });
    expect(parseApplyContent('<code>x</code>\n<update>y')).toMatchObject({ ok: false, message: expect.stringMatching(/<\/update>/) });
    expect(parseApplyContent('<code>a\nb\n</code>\n<update>\n \n</update>')).toMatchObject({ ok: false, message: expect.stringMatching(/empty <update>/) });
  });
});

describe('confidence and routing', () => {
  const code = 'function a() {\n  step();\n}\n\nfunction b() {\n  step();\n}\n';
  it('flags a repeated anchor without context and auto hands it to svc-v3-large', () => {
    const r = mergeApply({ instruction: null, code, update: '// ... existing code ...\n  step();\n  more();\n// ... existing code ...' }, 'auto');
    expect(r.model).toBe('svc-v3-large');
    expect(r.confidence).toBeLessThan(1);
    expect(r.ambiguities.length).toBeGreaterThan(0);
  });

  it('keeps svc-v3-fast with full confidence when every anchor is unique', () => {
    const r = mergeApply({ instruction: null, code, update: '// ... existing code ...\nfunction b() {\n  step();\n  more();\n}' }, 'auto');
    expect(r.model).toBe('svc-v3-fast');
    expect(r.confidence).toBe(1);
    expect(r.content).toBe('function a() {\n  step();\n}\n\nfunction b() {\n  step();\n  more();\n}\n');
  });
});
