// The no-loss oracle (src/apply/loss.ts) must not be passable by luck: correct merges pass it, and
// outputs built to drop code — a kept line deleted from a correct merge, the file replaced by the
// snippet, a marker left in, a tail function cut — fail it, whichever line is dropped.
import { describe, expect, it } from 'vitest';
import { checkLoss, restoreLost } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { HELDOUT_DIR, loadCorpus } from './corpus-loader.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

// The syntax pass uses the grammars already loaded in this thread (the worker loads them per request).
await ensureAllGrammars();

const corpus = [...loadCorpus(), ...loadCorpus(HELDOUT_DIR)];

/** Lines of `expected` that are original lines the update never mentions, unique in the original. */
function untouchedLines(code: string, update: string, expected: string): number[] {
  const orig = code.split(/\r?\n/).map((l) => l.trim().replace(/\s+/g, ' ').replace(/^\uFEFF/, ''));
  const upd = new Set(update.split(/\r?\n/).map((l) => l.trim().replace(/\s+/g, ' ')));
  const count = new Map<string, number>();
  for (const l of orig) count.set(l, (count.get(l) ?? 0) + 1);
  const exp = expected.split(/\r?\n/);
  const out: number[] = [];
  exp.forEach((l, k) => {
    const n = l.trim().replace(/\s+/g, ' ').replace(/^\uFEFF/, '');
    if (n.length > 3 && count.get(n) === 1 && !upd.has(n) && /[A-Za-z]/.test(n)) out.push(k);
  });
  return out;
}

describe('no-loss oracle', () => {
  it('accepts every expected output of both corpora', () => {
    const bad = corpus.filter((c) => checkLoss(c.code, c.update, c.instruction, c.expected).lost.length > 0);
    expect(bad.map((c) => c.name)).toEqual([]);
  });

  it('rejects a correct merge with any one kept line deleted (every case, several lines each)', () => {
    let tried = 0;
    const missed: string[] = [];
    for (const c of corpus) {
      const lines = untouchedLines(c.code, c.update, c.expected);
      const exp = c.expected.split('\n');
      for (const k of lines.filter((_, x) => x % 6 === 0)) {
        const dropped = [...exp.slice(0, k), ...exp.slice(k + 1)].join('\n');
        tried++;
        if (checkLoss(c.code, c.update, c.instruction, dropped).lost.length === 0) missed.push(`${c.name}: line ${k + 1} ${exp[k]!.trim()}`);
      }
    }
    expect(tried).toBeGreaterThan(1000);
    expect(missed).toEqual([]);
    // ~1,300 checks over both corpora: about 55 s alone on the shared 2-core box.
  }, 180_000);

  it('rejects the failure shapes of issue 28', () => {
    const code = [
      'class Api {', '  list() {', '    return db.all();', '  }', '', '  get(id) {', '    return db.one(id);', '  }', '', '  remove(id) {', '    return db.del(id);', '  }', '}', '',
      'function helper() {', '  return 1;', '}', '',
    ].join('\n');
    const snippet = '  get(id) {\n    return db.one(Number(id));\n  }';
    // The whole file replaced by a snippet holding one method and no marker.
    expect(checkLoss(code, snippet, null, snippet + '\n').lost.length).toBeGreaterThan(5);
    // A function after the last hunk cut off.
    const update = '// ... existing code ...\n  remove(id) {\n    return db.del(String(id));\n  }\n}';
    const cut = code.replace('return db.del(id)', 'return db.del(String(id))').replace(/\nfunction helper[\s\S]*$/, '\n');
    const lost = checkLoss(code, update, null, cut).lost;
    expect(lost).toContain(code.split('\n').indexOf('function helper() {'));
    // Methods between two hunks dropped although a marker stood between them.
    const two = '// ... existing code ...\n  list() {\n    return db.all(1);\n  }\n// ... existing code ...\n  remove(id) {\n    return db.del(2);\n  }\n// ... existing code ...';
    const dropped = code.replace('return db.all()', 'return db.all(1)').replace('return db.del(id)', 'return db.del(2)').replace('\n  get(id) {\n    return db.one(id);\n  }\n', '\n');
    expect(checkLoss(code, two, null, dropped).lost.length).toBe(3);
    // A marker left in the output.
    const kept = code.replace('  get(id) {', '  // ... existing code ...\n  get(id) {');
    expect(checkLoss(code, '// ... existing code ...\n  get(id) {\n// ... existing code ...', null, kept).markersKept).toBe(1);
    // An instruction that names a different function licenses nothing here.
    expect(checkLoss(code, snippet, 'Remove the `list` method.', snippet + '\n').lost.length).toBeGreaterThan(3);
  });

  it('licenses (a) replaced lines, (b) lines between adjacent anchors, (c) instructed removals', () => {
    const code = 'def a():\n    x = 1\n    y = 2\n    return x + y\n\n\ndef b():\n    return 3\n\n\ndef c():\n    return 4\n';
    // (a): `x = 1` edited in place.
    const a = checkLoss(code, '# ...\n    x = 10\n    y = 2\n# ...', null, code.replace('x = 1', 'x = 10'));
    expect(a.lost).toEqual([]);
    expect(a.licensed.replaced).toBe(1);
    // (b): `y = 2` deleted between `x = 1` and `return x + y`, shown adjacent.
    const b = checkLoss(code, '# ...\n    x = 1\n    return x + y\n# ...', null, code.replace('    y = 2\n', ''));
    expect(b.lost).toEqual([]);
    expect(b.licensed['between-anchors']).toBe(1);
    // The same deletion with a marker between the anchors is loss.
    expect(checkLoss(code, '# ...\n    x = 1\n    # ...\n    return x + y\n# ...', null, code.replace('    y = 2\n', '')).lost).toEqual([2]);
    // (c): `b` removed because the instruction says so, the update showing only another edit.
    const c = checkLoss(code, '# ...\ndef c():\n    return 5', 'Remove the unused `b` function.', code.replace('def b():\n    return 3\n\n\n', '').replace('return 4', 'return 5'));
    expect(c.lost).toEqual([]);
    expect(c.licensed.instructed).toBe(2);
    // Without the instruction that removal is loss.
    expect(checkLoss(code, '# ...\ndef c():\n    return 5', null, code.replace('def b():\n    return 3\n\n\n', '').replace('return 4', 'return 5')).lost).toEqual([6, 7]);
  });

  it('restoreLost turns a lossy merge into one that passes, putting lines back where they stood', () => {
    const code = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n\nfunction c() {\n  return 3;\n}\n';
    const snippet = 'function b() {\n  return 20;\n}';
    const { content, restored } = restoreLost(code, snippet, null, snippet + '\n');
    expect(content).toBe(code.replace('return 2;', 'return 20;'));
    expect(restored.length).toBe(6);
    expect(checkLoss(code, snippet, null, content).lost).toEqual([]);
  });

  it('the merge never returns a lossy output for any corpus case in any mode', () => {
    const lossy: string[] = [];
    for (const c of corpus) {
      for (const mode of ['fast', 'large', 'auto'] as const) {
        const out = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode).content;
        const r = checkLoss(c.code, c.update, c.instruction, out);
        if (r.lost.length > 0 || r.markersKept > 0) lossy.push(`${mode} ${c.name}`);
      }
    }
    expect(lossy).toEqual([]);
    // ~2,000 merges (both corpora, three modes): about 40 s alone on the shared 2-core box, past the
    // default 60 s when other test files run beside it.
  }, 180_000);
});
