// A new sibling read as the edit of the line it copies (branch losscl): the merge pairs a new
// declaration or macro invocation with its look-alike neighbour (`@State private var
// isConfirmingClearDone` over `isPresentingNewTask`, `histogram HTTP_LATENCY,` over `counter
// DB_QUERIES,`) and rule (a) of the no-loss check licensed the old lines as replaced. The output
// also holds a new line using the new name beside the same line with the old name, so the two names
// live side by side: the old lines were left out, not rewritten.
// The rule that keeps them (parallel-names.ts) was first reverted: it turned 6 exact cases per mode
// into misses (docs/apply.md, branch losscl). Branch losscl2 brought it back for replacements the
// update does not show right beside the old line's once-line neighbour; the guards pass again.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { lostLines } from '../../bench/apply/lost-lines.js';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const BENCH = path.resolve(__dirname, '../../bench/apply');

function benchCase(dir: string): { code: string; update: string; expected: string; instruction: string | null } {
  const at = (f: string) => fs.readFileSync(path.join(BENCH, dir, f), 'utf8');
  return { code: at('original'), update: at('update'), expected: at('expected'), instruction: JSON.parse(at('meta.json')).instruction };
}

/** No original line the expected file keeps goes missing, in fast and large, and the merge says it is unsure. */
function keepsCode(dir: string): void {
  const c = benchCase(dir);
  for (const mode of ['fast', 'large'] as const) {
    const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode);
    expect(lostLines(c.code, c.expected, r.content)).toEqual([]);
    expect(checkLoss(c.code, c.update, c.instruction, r.content).lost).toEqual([]);
    expect(r.confidence).toBeLessThan(0.9);
  }
}

describe('a new sibling read as the edit of the line it copies (losscl)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('a new macro invocation anchored on the next one: the next one\'s arguments stay', () => {
    keepsCode('external-2026-11-29ch/rust03-macro-rules-add-histogram-arm');
  });

  it('a new @State flag anchored on another flag still bound further down: the old flag stays', () => {
    keepsCode('external-2026-11-29cg/swift01-swiftui-nested-markers-add-toolbar-item');
  });

  it('a new private state flow between markers, set the way the loading flow is: the loading flow stays', () => {
    keepsCode('probes-losscl/kt01-viewmodel-new-state-flow-beside-loading');
  });

  it('the loss check refuses the pairing of an output that drops the look-alike', () => {
    const code = 'class Store {\n  private val _items = Flow(emptyList())\n  private val _isLoading = Flow(false)\n\n  fun load() {\n    _isLoading.value = true\n  }\n}\n';
    const update = 'class Store {\n  // ... existing state ...\n  private val _isSaving = Flow(false)\n\n  // ...\n\n  fun save() {\n    _isSaving.value = true\n  }\n}\n';
    const lossy = 'class Store {\n  private val _items = Flow(emptyList())\n  private val _isSaving = Flow(false)\n\n  fun load() {\n    _isLoading.value = true\n  }\n\n  fun save() {\n    _isSaving.value = true\n  }\n}\n';
    expect(checkLoss(code, update, null, lossy).lost).toEqual([2]);
  });

  it('control: a field renamed with its use rewritten is still an edit', () => {
    const code = 'class Store {\n  private val _items = Flow(emptyList())\n  private val _isLoading = Flow(false)\n\n  fun load() {\n    _isLoading.value = true\n  }\n}\n';
    const update = 'class Store {\n  private val _items = Flow(emptyList())\n  private val _isBusy = Flow(false)\n\n  fun load() {\n    _isBusy.value = true\n  }\n}\n';
    const r = mergeApply({ code, update, instruction: null }, 'fast');
    expect(checkLoss(code, update, null, r.content).lost).toEqual([]);
    expect(r.content).toBe(update);
  });
});
