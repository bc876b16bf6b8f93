// Inline markers and reflowed lines in the fresh rounds (docs/apply.md, branch `inlx`): a binding
// switched to a name the update derives from the old one (`const key = …${safeName}` under `const
// safeName = filename.replace(…)`) is that binding edited, not a new sibling; a one-line list the
// update writes out one element a row beside a marker (`from x import (` …) replaces that line; an
// inline marker standing for nothing in a list that adds an element, on the only line with that head,
// is dropped.
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

function merged(code: string, update: string): string[] {
  return (['fast', 'large'] as const).map((mode) => {
    const r = mergeApply({ code, update, instruction: null }, mode);
    expect(checkLoss(code, update, null, r.content).lost).toEqual([]);
    return r.content;
  });
}

describe('inline markers and reflowed lines (inlx)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('cf ts04, cg py06, cg php03', () => {
    mergedCase(caseDir('external-2026-11-29cf', 'ts04-'));
    mergedCase(caseDir('external-2026-11-29cg', 'py06-'));
    mergedCase(caseDir('external-2026-11-29cg', 'php03-'));
  });

  it('probes: Python / TypeScript reflows, Python / Kotlin derived bindings, JS / Rust empty markers', () => {
    for (const p of ['py01-', 'ts01-', 'py02-', 'kt02-', 'js01-', 'rs02-']) mergedCase(caseDir('probes-inlx', p));
  });

  it('a binding switched to a derived name just before a marker replaces the old binding', () => {
    const code = 'export function handler(req) {\n  const { filename } = req.body;\n  if (!filename) {\n    return badRequest();\n  }\n\n  const key = `uploads/${filename}`;\n  return sign(key, filename);\n}\n';
    const update = '  if (!filename) {\n    return badRequest();\n  }\n\n  const safeName = filename.trim();\n  const key = `uploads/${safeName}`;\n  // ...\n';
    const expected = code.replace('  const key = `uploads/${filename}`;', '  const safeName = filename.trim();\n  const key = `uploads/${safeName}`;');
    for (const out of merged(code, update)) expect(out).toBe(expected);
  });

  it('control: a new call using a derived name beside the old call keeps the old call', () => {
    const code = 'def report(values):\n    total = sum(values)\n    log(total)\n    return total\n';
    const update = '    total = sum(values)\n    avg = total / len(values)\n    log(avg)\n    # ...\n';
    for (const out of merged(code, update)) expect(out).toContain('    log(total)\n');
  });

  it('a Python import reflowed over rows at the update start, a marker below, replaces the one-line import', () => {
    const code = 'import numpy as np\nfrom sklearn.metrics import classification_report, roc_auc_score\nfrom sklearn.pipeline import Pipeline\n\n\ndef report(y, p):\n    print(classification_report(y, p))\n    print(roc_auc_score(y, p))\n';
    const update = 'from sklearn.metrics import (\n    classification_report,\n    f1_score,\n    roc_auc_score,\n)\n# ...\n    print(roc_auc_score(y, p))\n    print(f1_score(y, p))\n';
    const expected = code
      .replace('from sklearn.metrics import classification_report, roc_auc_score\n', 'from sklearn.metrics import (\n    classification_report,\n    f1_score,\n    roc_auc_score,\n)\n')
      .replace('    print(roc_auc_score(y, p))\n', '    print(roc_auc_score(y, p))\n    print(f1_score(y, p))\n');
    for (const out of merged(code, update)) expect(out).toBe(expected);
  });

  it('an inline marker standing for nothing in a list that adds an element, on the only line with that head, is dropped', () => {
    const code = "Route::middleware(['auth', 'throttle:api'])->group(function () {\n    Route::get('/me', [UserController::class, 'me']);\n});\n";
    const update = "Route::middleware(['auth', /* ... */ 'throttle:api', 'verified'])->group(function () {\n    // ...\n});\n";
    for (const out of merged(code, update)) expect(out).toBe(code.replace("'throttle:api'])", "'throttle:api', 'verified'])"));
  });
});
