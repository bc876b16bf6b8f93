// Guard of branch orderx2 (docs/apply.md): hunks written out of file order. (1) A paragraph that goes
// back above the code before it with no marker between (`impl Client { // ... }`, a new method, `}`,
// then the `struct ClientConfig` it reads) is cut off its segment (hunk-order.ts backwardCut), so the
// hunks go in file order. (2) A note that opens with the end of a block (`// at the top of the class:`)
// separates two hunks as a marker (moving-note.ts). (3) The blank line a model writes between new
// sibling lines and the marker after them is layout where the original goes on without one
// (marker-blanks.ts). Revealed by Rust, C# and TSX cases of the round be-bi (bf rs05, bg cs02,
// be tsx01); the guards are Rust, Python, TypeScript and JavaScript, with two controls.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import { ensureGrammar } from '../../src/apply/syntax/grammars.js';
import { lines, mergedEverywhere } from './judged.js';

const rsStruct = (extra: string[]): string[] => ['pub struct Cache {', '    capacity: usize,', '    entries: HashMap<String, Vec<u8>>,', ...extra, '}', ''];
const rsImpl = (extra: string[]): string[] => [
  'impl Cache {', '    pub fn new(capacity: usize) -> Self {', '        Self { capacity, entries: HashMap::new() }', '    }', '',
  '    pub fn get(&self, key: &str) -> Option<&Vec<u8>> {', '        self.entries.get(key)', '    }', ...extra, '}'];
const rsLen = ['', '    pub fn hits(&self) -> u64 {', '        self.hits', '    }'];
const rsCode = lines(['use std::collections::HashMap;', '', ...rsStruct([]), ...rsImpl([])]);
const rsUpdate = lines(['impl Cache {', '    // ... existing methods ...', ...rsLen, '}', '', ...rsStruct(['    hits: u64,']).slice(0, -1)]);
const rsExpected = lines(['use std::collections::HashMap;', '', ...rsStruct(['    hits: u64,']), ...rsImpl(rsLen)]);

const pySettings = (extra: string[]): string[] => ['@dataclass', 'class Settings:', '    host: str = "localhost"', '    port: int = 8080', ...extra];
const pyApp = (extra: string[]): string[] => ['class App:', '    def __init__(self, settings):', '        self.settings = settings', '', '    def run(self):', '        serve(self.settings.host, self.settings.port)', ...extra];
const pyUrl = ['', '    def url(self):', '        return f"{self.settings.scheme}://{self.settings.host}"'];
const pyCode = lines(['from dataclasses import dataclass', '', '', ...pySettings([]), '', '', ...pyApp([])]);
const pyUpdate = lines(['class App:', '    # ... existing code ...', ...pyUrl, '', '', ...pySettings(['    scheme: str = "http"'])]);
const pyExpected = lines(['from dataclasses import dataclass', '', '', ...pySettings(['    scheme: str = "http"']), '', '', ...pyApp(pyUrl)]);

const tsClass = (field: string[], ret: string): string[] => [
  'export class Limiter {', ...field, '  private used = 0;', '', '  take(): boolean {', '    if (this.used >= ' + ret + ') return false;', '    this.used++;', '    return true;', '  }', '}'];
const tsCode = lines(tsClass([], '10'));
const tsUpdate = lines(['  take(): boolean {', '    if (this.used >= Limiter.MAX) return false;', '    this.used++;', '    return true;', '  }', '',
  '// at the top of the class:', '  static readonly MAX = 10;', '', '  private used = 0;']);
const tsExpected = lines(tsClass(['  static readonly MAX = 10;', ''], 'Limiter.MAX'));

const jsImports = (extra: string[]): string[] => ['import express from "express";', ...extra, 'import { db } from "./db.js";', ''];
const jsCode = lines([...jsImports([]), 'export const app = express();', 'app.get("/health", (req, res) => res.send("ok"));']);
const jsUpdate = lines(['import express from "express";', 'import helmet from "helmet";', '', '// ... existing code ...', 'export const app = express();', 'app.use(helmet());']);
const jsExpected = lines([...jsImports(['import helmet from "helmet";']), 'export const app = express();', 'app.use(helmet());', 'app.get("/health", (req, res) => res.send("ok"));']);

// Controls: a new function copying one above, written after the edited last one, stays where it is
// written; a code comment opening with `before` and ending with a colon stays a comment.
const jsLoad = (name: string, col: string): string[] => [`async function ${name}(${col}) {`, `  const row = await db.one("SELECT * FROM users WHERE ${col} = $1", [${col}]);`, `  if (!row) throw new Error(\`no user \${${col}}\`);`, '  return { id: row.id, name: row.name };', '}', ''];
const jsDelete = (extra: string[]): string[] => ['async function deleteUser(id) {', '  await db.none("DELETE FROM users WHERE id = $1", [id]);', ...extra, '}', ''];
const jsSessions = ['  await db.none("DELETE FROM sessions WHERE user_id = $1", [id]);'];
const copyCode = lines(['const db = require("./db");', '', ...jsLoad('loadUser', 'id'), ...jsDelete([]), 'module.exports = { loadUser, deleteUser };']);
const copyUpdate = lines(['// ... existing code ...', '', ...jsDelete(jsSessions), ...jsLoad('loadUserByEmail', 'email'), 'module.exports = { loadUser, loadUserByEmail, deleteUser };']);
const copyExpected = lines(['const db = require("./db");', '', ...jsLoad('loadUser', 'id'), ...jsDelete(jsSessions), ...jsLoad('loadUserByEmail', 'email'), 'module.exports = { loadUser, loadUserByEmail, deleteUser };']);

const tsAdd = (extra: string[]): string[] => ['  add(sku: string, n: number): void {', ...extra, '    this.items.set(sku, (this.items.get(sku) ?? 0) + n);', '  }'];
const tsGuard = ['    sku = sku.trim();', '', '    // before adding, drop non-positive counts:', '    if (n <= 0) return;'];
const commentCode = lines(['export class Cart {', '  private items = new Map<string, number>();', '', ...tsAdd([]), '}']);
const commentUpdate = lines(tsAdd(tsGuard));
const commentExpected = lines(['export class Cart {', '  private items = new Map<string, number>();', '', ...tsAdd(tsGuard), '}']);

// Control (set bk go16, read from its committed case): a new function first, its body copying a
// line of one further down, then an existing function rewritten, no markers: no backward hunk.
const go16 = join('bench/apply/external-2026-11-28bk/go16-spaces-snippet-into-tabs-file-replace-and-add');
const caseFile = (f: string): string => readFileSync(join(go16, f), 'utf8');
beforeAll(async () => {
  await ensureGrammar('go');
});

describe('orderx2: hunks out of file order', () => {
  it('a paragraph going back to a struct above, after the new method closing its impl, goes there (Rust)', () => mergedEverywhere(rsCode, rsUpdate, rsExpected));
  it('a dataclass shown after a method under its class, with no marker between, goes above (Python)', () => mergedEverywhere(pyCode, pyUpdate, pyExpected));
  it('a note `at the top of the class:` separates two reversed hunks (TypeScript)', () => mergedEverywhere(tsCode, tsUpdate, tsExpected));
  it('the blank line between a new import and the marker after it is layout (JavaScript)', () => mergedEverywhere(jsCode, jsUpdate, jsExpected));
  it('control: a new function copying an earlier one stays after the edited function it follows', () => mergedEverywhere(copyCode, copyUpdate, copyExpected));
  it('control: a code comment opening with `before` and ending with a colon stays', () => mergedEverywhere(commentCode, commentUpdate, commentExpected));
  it('control: a new function copying a line from below, then an edited function, stays in update order (Go, bk go16)', () =>
    mergedEverywhere(caseFile('original'), caseFile('update'), caseFile('expected')));
});
