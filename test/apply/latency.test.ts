// Merge latency by file size, with and without the no-loss pass's work (run on purpose:
// APPLY_LATENCY=1 npx vitest run test/apply/latency.test.ts). Files of 100 / 1,000 / 10,000 lines
// are built from the held-out TypeScript sample with renamed copies; each edit is a random lazy edit
// (edit-gen.ts). Prints p50 / p99 milliseconds of mergeApply in-process (no HTTP, no tokenizer).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { mergeApply, type MergeMode } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';
import { applyChanges, editLine, LANGS, renderUpdate, rng, strongLine, type Change } from './edit-gen.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

// Measured with the syntax pass as the worker runs it (SVC_APPLY_SYNTAX=0 for line alignment only).
await ensureAllGrammars();

function fileOf(lines: number): string[] {
  const sample = readFileSync(join(import.meta.dirname, 'heldout', 'src', 'orders.ts.txt'), 'utf8').replace(/\n$/, '').split('\n');
  const out: string[] = [];
  for (let copy = 0; out.length < lines; copy++) out.push(...sample.map((l) => l.replace(/\b(OrderStore|validateName|validateEmail|formatItem|STATUSES)\b/g, `$1${copy}`)), '');
  return out.slice(0, lines);
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

it.skipIf(!process.env.APPLY_LATENCY)('merge latency by file size', () => {
  const rows: string[] = [];
  for (const size of [100, 1000, 10_000]) {
    const lines = fileOf(size);
    const code = lines.join('\n') + '\n';
    const runs = size >= 10_000 ? 40 : 300;
    for (const mode of ['fast', 'auto'] as MergeMode[]) {
      const ms: number[] = [];
      let exact = 0;
      let lossy = 0;
      for (let n = 0; n < runs; n++) {
        const r = rng(n * 7919 + size);
        const changes: Change[] = [];
        for (let t = 0; t < 40 && changes.length < 2; t++) {
          const j = 1 + Math.floor(r() * (size - 2));
          const e = strongLine(lines[j]!) ? editLine(lines[j]!, r) : null;
          if (e && e !== lines[j] && changes.every((c) => Math.abs(c.start - j) > 8)) changes.push({ start: j, end: j + 1, lines: [e] });
        }
        const update = renderUpdate(lines, changes, LANGS.ts!, r, { before: 2, after: 2, leadingMarker: true, trailingMarker: true }).join('\n');
        const t0 = performance.now();
        const out = mergeApply({ code, update, instruction: null }, mode).content;
        ms.push(performance.now() - t0);
        if (out === applyChanges(lines, changes).join('\n') + '\n') exact++;
        if (checkLoss(code, update, null, out).lost.length > 0) lossy++;
      }
      rows.push(`${String(size).padStart(6)} lines ${mode.padEnd(5)} p50 ${pct(ms, 50).toFixed(2)} ms  p99 ${pct(ms, 99).toFixed(2)} ms  exact ${exact}/${runs}  lossy ${lossy}`);
    }
  }
  console.log(rows.join('\n'));
}, 600_000);
