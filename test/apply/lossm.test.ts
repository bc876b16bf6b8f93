// Branch lossm: licences that need positive evidence, and removals named the way people talk. Each
// guard is written in another language than the held-out case that revealed the rule (where the
// construct exists in one language only, that is said).
import { describe, expect, it } from 'vitest';
import { judged, lines } from './judged.js';
import { checkLoss } from '../../src/apply/loss.js';
import { splitLines } from '../../src/apply/lines.js';
import { closerToKeptLine, newSiblingLine } from '../../src/apply/edit-evidence.js';
import { instructedRemovals, removalNames } from '../../src/apply/removals.js';
import { headingNames, sectionEnd } from '../../src/apply/spoken-targets.js';
import { mergeApply } from '../../src/apply/merge.js';

describe('lossm: an update line replaces only the line it reads as the edit of', () => {
  it('a line more like another kept line is that line\'s edit, not this one\'s (Python; set k cs03 in C#)', () => {
    const ward = ['class WardApi:', '    def get(self, item_id) -> Ward:', '        return self.service.get(item_id)', ''];
    const rota = ['class RotaApi:', '    def get(self, item_id) -> Rota:', '        return self.service.get(item_id)'];
    const code = lines([...ward, ...rota]);
    const update = lines(['class RotaApi:', '    def get(self, item_id, timeout) -> Rota:', '        # ... existing code ...']);
    const good = lines([...ward, 'class RotaApi:', '    def get(self, item_id, timeout) -> Rota:', '        return self.service.get(item_id)']);
    // The new head put in the first class, in place of its own `get`.
    const lossy = lines(['class WardApi:', '    def get(self, item_id, timeout) -> Rota:', '        return self.service.get(item_id)', '', ...rota]);
    expect(judged(code, update, lossy, good)).toEqual([1]);
    const o = splitLines(code);
    expect(closerToKeptLine(o, 1, 'def get(self, item_id, timeout) -> Rota:', (y) => y !== 1, () => false)).toBe(true);
    // Without the twin, the same line is the head's edit.
    expect(closerToKeptLine(o, 5, 'def get(self, item_id, timeout) -> Rota:', (y) => y !== 5, () => false)).toBe(false);
  });

  it('a line changed at two places beside siblings of its form is a new sibling (Ruby; set k go02 in Go, tsx04 in TSX)', () => {
    const routes = ['Rails.application.routes.draw do', '  get "/orders", to: "orders#index"', '  get "/orders/:id", to: "orders#show"', '  delete "/orders/:id", to: "orders#destroy"', 'end'];
    const code = lines(routes);
    const o = splitLines(code);
    expect(newSiblingLine(o, 2, 'get "/orders/count", to: "orders#count"')).toBe(true);
    // One place changed (the action renamed), or the key kept: an edit.
    expect(newSiblingLine(o, 2, 'get "/orders/:id", to: "orders#display"')).toBe(false);
  });

  it('a new route after a marker is no edit of the route above its anchor (JavaScript; set k go02 in Go)', () => {
    const routes: string[] = [];
    for (const [e, t] of [['users', 'User'], ['orders', 'Order'], ['invoices', 'Invoice']]) routes.push(`  router.get("/${e}", list${t}s);`, `  router.get("/${e}/:id", get${t});`, `  router.delete("/${e}/:id", delete${t});`);
    const code = lines(['export function routes(router) {', ...routes, '  return router;', '}']);
    const update = lines(['export function routes(router) {', '  // ... existing routes ...', '  router.get("/orders/count", countOrders);', '  router.delete("/orders/:id", deleteOrder);', '  // ... existing routes ...', '  return router;', '}']);
    const good = lines(['export function routes(router) {', ...routes.slice(0, 5), '  router.get("/orders/count", countOrders);', ...routes.slice(5), '  return router;', '}']);
    // `router.get("/orders/:id", getOrder)` read as the new route's old text: main's oracle passed this.
    const lossy = lines(['export function routes(router) {', ...routes.slice(0, 4), '  router.get("/orders/count", countOrders);', ...routes.slice(5), '  return router;', '}']);
    expect(judged(code, update, lossy, good)).toEqual([5]);
  });

  it('an edit at a marker edge that keeps its key is still an edit (TOML)', () => {
    const code = lines(['[server]', 'host = "0.0.0.0"', 'port = 8080', 'timeout = "30s"', '']);
    const update = lines(['[server]', '# ... existing keys ...', 'timeout = "60s"']);
    const good = lines(['[server]', 'host = "0.0.0.0"', 'port = 8080', 'timeout = "60s"', '']);
    expect(checkLoss(code, update, null, good).lost).toEqual([]);
  });
});

describe('lossm: removals named the way people talk', () => {
  it('an update of markers alone keeps the file and applies the instruction (Go; set k ex03, py14, sql03)', () => {
    const code = lines(['package api', '', 'func keep() int {', '\treturn 1', '}', '', 'func legacyHandler() int {', '\treturn 2', '}', '', 'func other() int {', '\treturn 3', '}']);
    const want = lines(['package api', '', 'func keep() int {', '\treturn 1', '}', '', 'func other() int {', '\treturn 3', '}']);
    for (const mode of ['fast', 'large'] as const) {
      expect(mergeApply({ code, update: '// ... existing code ...\n', instruction: 'Remove the legacyHandler function.' }, mode).content).toBe(want);
      // No instruction: nothing changes, and no marker is left in.
      expect(mergeApply({ code, update: '// ... existing code ...\n', instruction: null }, mode).content).toBe(code);
    }
  });

  it('a kind word people use names the type ("the Hold dataclass"), filler words name nothing (Kotlin; set k py14)', () => {
    const o = splitLines(lines(['data class Hold(val id: Int)', '', 'class HoldRepository {', '    fun all(): List<Hold> = emptyList()', '}']));
    expect(removalNames(o, 'Delete the Hold record and HoldRepository entirely.')).toEqual(['Hold', 'HoldRepository']);
  });

  it('a Markdown section is its heading to the next heading of its level; a Python comment is no section (set k md03)', () => {
    const md = splitLines(lines(['# Tool', '', 'Intro.', '', '## Features', '', '- a', '- b', '', '### Detail', '', 'x', '', '## Usage', '', 'Run it.']));
    expect(headingNames(md, '## Features', 'Features')).toBe(true);
    expect(sectionEnd(md, 4)).toBe(12);
    const removed = instructedRemovals(md, new Uint8Array(md.text.length).fill(1), 'Remove the Features section.', '');
    expect([...removed].sort((a, b) => a - b)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const py = splitLines(lines(['import os', '# Features', 'FEATURES = []', '', 'def run():', '    pass']));
    expect(sectionEnd(py, 1)).toBe(-1);
    expect(headingNames(py, '# Features', 'Features')).toBe(false);
  });

  it('an SQL index named by its column and table (SQL only; set k sql03)', () => {
    const o = splitLines(lines(['CREATE TABLE orders (id bigint, placed_at timestamptz);', 'CREATE INDEX orders_placed_idx ON orders (placed_at);', 'CREATE INDEX items_placed_idx ON items (placed_at);']));
    expect(removalNames(o, 'Drop the placed_at index on orders.')).toContain('orders_placed_idx');
    expect(removalNames(o, 'Drop the placed_at index on orders.')).not.toContain('items_placed_idx');
  });

  it('a removed type takes its impl blocks along (Rust only; set l rs04)', () => {
    const o = splitLines(lines(['struct Keep;', '', 'struct Gone {', '    n: u32,', '}', '', 'impl Gone {', '    fn new() -> Self { Gone { n: 0 } }', '}', '', 'impl Display for Gone {', '    fn fmt(&self) {}', '}', '', 'impl Keep {}']));
    const removed = instructedRemovals(o, new Uint8Array(o.text.length).fill(1), 'Remove the Gone type.', '');
    expect(removed.has(2) && removed.has(6) && removed.has(10)).toBe(true);
    expect(removed.has(0) || removed.has(14)).toBe(false);
  });

  it('blocks named after a removed one, of the kinds the phrase says (HCL only; set l tf02)', () => {
    const code = lines([
      'resource "aws_s3_bucket" "uploads" {', '  bucket = "u"', '}', '',
      'resource "aws_s3_bucket" "uploads_replica" {', '  bucket = "r"', '}', '',
      'resource "aws_cloudwatch_metric_alarm" "uploads_size" {', '  threshold = 1', '}', '',
      'resource "aws_s3_bucket" "logs" {', '  bucket = "l"', '}',
    ]);
    const o = splitLines(code);
    const removed = instructedRemovals(o, new Uint8Array(o.text.length).fill(1), 'Remove the uploads bucket, its replica and alarm.', '');
    expect(removed.has(0) && removed.has(4) && removed.has(8)).toBe(true);
    expect(removed.has(12)).toBe(false);
  });
});
