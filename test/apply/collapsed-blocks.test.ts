// Blocks collapsed onto one line (src/apply/collapsed-blocks.ts): `"deps": { ... },` stands for the
// original block with that head; an edited head finds its block by shared leading tokens; anything
// uncertain (two blocks with the head, a tie, another indentation, no body) stays as written.
import { describe, expect, it } from 'vitest';
import { expandCollapsedBlocks } from '../../src/apply/collapsed-blocks.js';

const lines = (a: string[]): string => a.join('\n') + '\n';

describe('expandCollapsedBlocks', () => {
  const json = lines(['{', '  "scripts": {', '    "test": "vitest"', '  },', '  "dependencies": {', '    "zod": "^3.23.8"', '  }', '}']);
  it('expands a collapsed block to the original head, body and closer', () => {
    expect(expandCollapsedBlocks(lines(['  "scripts": { ... },', '  // ...']), json)).toBe(lines(['  "scripts": {', '    "test": "vitest"', '  },', '  // ...']));
  });
  it('an edited head keeps its text and takes the body of the block sharing the most leading tokens', () => {
    const js = lines(['router.get("/a", auth, async (req, res) => {', '  res.send(1);', '});', 'router.delete("/a/:id", auth, async (req, res) => {', '  res.send(2);', '});']);
    const update = 'router.delete("/a/:id", auth, admin, async (req, res) => { /* ... */ });\n';
    expect(expandCollapsedBlocks(update, js)).toBe(lines(['router.delete("/a/:id", auth, admin, async (req, res) => {', '  res.send(2);', '});']));
  });
  it('leaves the line when two blocks have its head, at another indentation, or when the closer differs', () => {
    const twice = lines(['fn a() {', '    x();', '}', 'fn a() {', '    y();', '}']);
    expect(expandCollapsedBlocks('fn a() { ... }\n', twice)).toBe('fn a() { ... }\n');
    expect(expandCollapsedBlocks('    "scripts": { ... },\n', json)).toBe('    "scripts": { ... },\n');
    expect(expandCollapsedBlocks('  "scripts": { ... });\n', json)).toBe('  "scripts": { ... });\n');
  });
  it('keeps CRLF line ends', () => {
    const crlf = json.replace(/\n/g, '\r\n');
    expect(expandCollapsedBlocks('  "scripts": { ... },\r\n', crlf)).toBe('  "scripts": {\r\n    "test": "vitest"\r\n  },\r\n');
  });
});
