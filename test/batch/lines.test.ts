import { describe, expect, it } from 'vitest';
import { splitLines } from '../../src/batch/lines.js';

describe('line splitter', () => {
  it('keeps multi-byte characters split across chunks and numbers physical lines', () => {
    const text = 'α\r\n\n{"é":1}\nlast';
    const bytes = Buffer.from(text);
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    const lines = [...splitLines(chunks, 100)];
    expect(lines).toEqual([
      { line: 1, text: 'α', tooLong: false },
      { line: 2, text: '', tooLong: false },
      { line: 3, text: '{"é":1}', tooLong: false },
      { line: 4, text: 'last', tooLong: false },
    ]);
  });

  it('drops a UTF-8 byte order mark before the first line, even split across chunks', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n\uFEFF{"b":2}\n')]);
    const lines = [...splitLines([bytes.subarray(0, 2), bytes.subarray(2)], 100)];
    // only the file's first bytes are a BOM; one later in the file is content (and invalid JSON)
    expect(lines.map((l) => l.text)).toEqual(['{"a":1}', '\uFEFF{"b":2}']);
  });

  it('flags lines past the byte limit without holding them', () => {
    const lines = [...splitLines([Buffer.from('short\n' + 'x'.repeat(50) + '\nok')], 10)];
    expect(lines.map((l) => [l.line, l.tooLong])).toEqual([[1, false], [2, true], [3, false]]);
  });
});
