// Guards of branch shapew (docs/apply.md): hunks placed by their own lines whatever order the
// update wrote them in, and edits at the file's first and last lines. Revealed by held-out cases in
// Python, TypeScript, C++ and HTML (sets i py10, q ts03, q py04, t py05, y ts03, y cpp01, j html02);
// the guards are in Kotlin, Swift, Lua, C# and Rust.
import { describe, expect, it } from 'vitest';
import { lines } from './judged.js';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';

const modes = ['fast', 'large', 'auto'] as const;
const BOM = '\uFEFF';

function mergesTo(code: string, update: string, expected: string): void {
  for (const mode of modes) expect(mergeApply({ code, update, instruction: null }, mode).content, mode).toBe(expected);
}

// Swift: a hunk of one edited constant, written after a hunk that comes later in the file.
const swiftHead = ['import Foundation', '', 'let maxItems = 20', '', 'let pageTimeout: TimeInterval = 8', ''];
const swiftBody = (cond: string): string[] => [
  'struct FeedLoader {', '    let session: URLSession', '', '    func load(page: Int) async throws -> [Item] {',
  `        guard ${cond} else { return [] }`, '        let url = URL(string: "https://feed.example/api?page=\\(page)")!',
  '        let (data, _) = try await session.data(from: url)', '        return try JSONDecoder().decode([Item].self, from: data)', '    }', '}'];
const swiftCode = lines([...swiftHead, ...swiftBody('page >= 0')]);
const swiftUpdate = lines(['// ... existing code ...', '    func load(page: Int) async throws -> [Item] {', '        guard page >= 0, page < 1000 else { return [] }',
  '        // ... existing code ...', '    }', '}', '', '// ... existing code ...', 'let maxItems = 50', '// ... existing code ...']);
const swiftExpected = lines([...swiftHead.map((l) => l.replace('maxItems = 20', 'maxItems = 50')), ...swiftBody('page >= 0, page < 1000')]);

// Kotlin: a new test after a marker inside the class (one of its lines, an assertion, is in another
// test too), then the imports hunk that comes first in the file.
// (JUnit 3 style: no annotation line that every test repeats.)
const ktTests = [
  '    fun testParsesPort() {', '        val cfg = parse("port = 8080")', '        assertEquals(8080, cfg.port)', '    }', '',
  '    fun testRejectsNegativePort() {', '        assertFailsWith<ParseError> { parse("port = -1") }', '    }'];
const ktNew = ['    fun testParsesPortAfterComment() {', '        val cfg = parse("# note\\nport = 8080")', '        assertEquals(8080, cfg.port)', '    }'];
const ktImports = (extra: string[]): string[] => ['package app.config', '', 'import junit.framework.TestCase', ...extra, 'import kotlin.test.assertEquals', 'import kotlin.test.assertFailsWith', ''];
const ktCode = lines([...ktImports([]), 'class ParserTest : TestCase() {', ...ktTests, '}']);
const ktUpdate = lines(['class ParserTest : TestCase() {', '    // ... existing tests ...', '', ...ktNew, '', '// ... existing code ...', '', 'package app.config', '',
  'import junit.framework.TestCase', 'import kotlin.test.assertContains', 'import kotlin.test.assertEquals']);
const ktExpected = lines([...ktImports(['import kotlin.test.assertContains']), 'class ParserTest : TestCase() {', ...ktTests, '', ...ktNew, '}']);

// Lua: the last line, without a final newline, wrapped whole in a call; the update stops there.
const luaBody = ['local M = {}', '', 'function M.run(args)', '  local n = tonumber(args[1]) or 10', '  for i = 1, n do', '    io.write(i, "\\n")', '  end',
  '  return 0', 'end', '', 'local function main()', '  return M.run(arg)', 'end', ''];
const luaCode = [...luaBody, 'main()'].join('\n');
const luaUpdate = ['-- ... existing code ...', 'local function main()', '  return M.run(arg)', 'end', '', 'os.exit(main())'].join('\n');
const luaExpected = [...luaBody, 'os.exit(main())'].join('\n');

// C#: a byte-order mark, a new first line and the old first line shown after it.
const csRest = ['using System.Linq;', '', 'namespace Shop;', '', 'public static class Totals', '{', '    public static decimal Sum(IEnumerable<decimal> xs) => xs.Sum();', '}'];
const csCode = BOM + lines(['using System.Collections.Generic;', ...csRest]);
const csUpdate = lines(['using System;', 'using System.Collections.Generic;', '// ... existing code ...']);
const csExpected = BOM + lines(['using System;', 'using System.Collections.Generic;', ...csRest]);

// Rust: a location comment between two hunks, after a blank line and no marker, moves to another function.
const rsFns = (extra: string[], cap: string): string[] => [
  'pub struct Queue {', '    items: Vec<u32>,', `    cap: usize,`, ...extra, '}', '', 'impl Queue {', '    pub fn new(cap: usize) -> Self {',
  '        Queue { items: Vec::new(), cap }', '    }', '', '    pub fn push(&mut self, x: u32) -> bool {', `        if self.items.len() >= ${cap} {`,
  '            return false;', '        }', '        self.items.push(x);', '        true', '    }', '', '    pub fn len(&self) -> usize {', '        self.items.len()', '    }', '}'];
const rsCode = lines(rsFns([], 'self.cap'));
const rsUpdate = lines(['pub struct Queue {', '    items: Vec<u32>,', '    cap: usize,', '    dropped: u64,', '}', '', '// and in push():', '    pub fn push(&mut self, x: u32) -> bool {',
  '        if self.items.len() >= self.cap && self.dropped < u64::MAX {', '            return false;', '        }']);
const rsExpected = lines(rsFns(['    dropped: u64,'], 'self.cap && self.dropped < u64::MAX'));

describe('shapew: hunk order and file edges', () => {
  it('Rust: a location comment between hunks stands as a marker and is not written', () => mergesTo(rsCode, rsUpdate, rsExpected));
  it('Swift: a hunk of edited lines only goes on the lines it edits, not after the hunk before it', () => mergesTo(swiftCode, swiftUpdate, swiftExpected));
  it('Kotlin: new code after a marker travels with its hunk; the imports hunk goes first', () => mergesTo(ktCode, ktUpdate, ktExpected));
  it('Lua: the last line wrapped whole is replaced, not kept after its edit', () => {
    mergesTo(luaCode, luaUpdate, luaExpected);
    // The oracle reads the wrap as the line's edit, and the old line kept as no loss either.
    expect(checkLoss(luaCode, luaUpdate, null, luaExpected).lost).toEqual([]);
  });
  it('C#: the byte-order mark stays at the file start when a line goes in above the first one', () => mergesTo(csCode, csUpdate, csExpected));
});
