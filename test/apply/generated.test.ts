// 10,000 synthetic lazy edits over real source files: TS/JS shipped in installed npm packages and
// the other-language samples of the held-out corpus. Each edit changes, inserts or deletes lines in
// one to three places and is rendered the way a model writes it (context kept short, markers in the
// language's comment syntax and wording). Every merge must pass the no-loss oracle; where the update
// pins every hunk (a line unique in the file on both sides of each change) the merge must also be
// byte-exact at the measured rate.
import { appendFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { applyChanges, editLine, pick, pinned, renderUpdate, rng, strongLine, type Change } from './edit-gen.js';
import { hash, npmSources, sampleSources, type Source } from './sources.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { lostLines } from '../../bench/apply/lost-lines.js';
import { SHAPES, shapeEdit } from './edit-shapes.js';
import { MODEL_SHAPES } from './model-shapes.js';

// The syntax pass uses the grammars already loaded in this thread (the worker loads them per request).
await ensureAllGrammars();

/** Edits in all: line edits drawn at random, plus SHAPED edits in the shapes models write (edit-shapes.ts, model-shapes.ts). */
const EDITS = Number(process.env.APPLY_GENERATED_EDITS ?? 10_000);
const SHAPED = Math.round(EDITS / 5);
const RANDOM = EDITS - SHAPED;
/** APPLY_GENERATED_SEED=<word> draws other edits over the same files (unset: the pinned draw). */
const SEED = process.env.APPLY_GENERATED_SEED ?? '';
/** Byte-exact floor on determined edits (measured, rounded down). */
const EXACT_FLOOR = 0.95;

/** One random lazy edit of `src`; null when the draw found nothing to change. */
function randomEdit(src: Source, r: () => number): { update: string; expected: string; determined: boolean } | null {
  const { lines, lang } = src;
  const count = new Map<string, number>();
  for (const l of lines) count.set(l.trim(), (count.get(l.trim()) ?? 0) + 1);
  const hunks = 1 + Math.floor(r() * 3);
  const changes: Change[] = [];
  for (let h = 0; h < hunks * 4 && changes.length < hunks; h++) {
    const j = 1 + Math.floor(r() * (lines.length - 2));
    if (!strongLine(lines[j]!) || changes.some((c) => Math.abs(c.start - j) < 8)) continue;
    const op = r();
    const indent = lines[j]!.match(/^\s*/)![0];
    if (op < 0.5) {
      const e = editLine(lines[j]!, r);
      if (e && e !== lines[j]) changes.push({ start: j, end: j + 1, lines: [e] });
    } else if (op < 0.8) {
      if (!/[{(\[,:]\s*$/.test(lines[j]!)) changes.push({ start: j + 1, end: j + 1, lines: [lang.statement(indent, `gen-${h}`)] });
    } else if (!/[{(\[:]\s*$|^\s*[})\]]/.test(lines[j]!)) {
      changes.push({ start: j, end: j + 1, lines: [] });
    }
  }
  if (changes.length === 0) return null;
  const before = 1 + Math.floor(r() * 3);
  const after = Math.floor(r() * 4);
  const update = renderUpdate(lines, changes, lang, r, { before, after, leadingMarker: true, trailingMarker: true });
  // Pinned: each change has a line unique in the file among the context the update shows on both sides.
  const shown = new Set(update.map((l) => l.trim()));
  const uniqueNear = (from: number, to: number): boolean => {
    for (let j = Math.max(0, from); j < Math.min(lines.length, to); j++) if (count.get(lines[j]!.trim()) === 1 && strongLine(lines[j]!) && shown.has(lines[j]!.trim())) return true;
    return false;
  };
  const determined = changes.every((c) => uniqueNear(c.start - before - 4, c.start) && uniqueNear(c.end, c.end + after + 4));
  return { update: update.join('\n'), expected: applyChanges(lines, changes).join('\n') + '\n', determined };
}

// APPLY_GENERATED_DUMP=<file>: one JSON line per edit that is not byte-exact (source, edit number,
// update, expected, output, and the original lines the no-loss check refuses in the expected file).
const DUMP = process.env.APPLY_GENERATED_DUMP;
if (DUMP) writeFileSync(DUMP, '');

/**
 * Shapes whose losses are known and not fixed yet: measured and reported, not gated (docs/apply.md).
 * None now: new-sibling-definition (C heads `T *name(`, qualified heads, a method in a second
 * `impl`) is gated since branch lossn (look-alike-blocks.ts, block-names.ts, removals.ts).
 */
const MEASURED_ONLY: Record<string, string> = {};

const tally = { edits: 0, determined: 0, exact: 0, exactAll: 0, lossy: [] as string[], ms: 0 };
const shaped = new Map<string, { edits: number; determined: number; exact: number; oracle: number; lost: number }>();
const shapedLossy: string[] = [];
let shapedMs = 0;

describe('generated lazy edits', () => {
  const npm = npmSources(160);
  const samples = sampleSources();
  const sources = [...npm, ...samples];

  it(`${RANDOM} random line edits over npm sources and samples keep every original line (no-loss oracle), determined ones byte-exact`, () => {
    expect(sources.length).toBeGreaterThan(40);
    const t0 = performance.now();
    for (let n = 0; tally.edits < RANDOM && n < RANDOM * 3; n++) {
      const src = sources[n % sources.length]!;
      const r = rng(hash(`${SEED}${src.name}#${n}`));
      const e = randomEdit(src, r);
      if (!e) continue;
      tally.edits++;
      const code = src.lines.join('\n') + '\n';
      const out = mergeApply({ code, update: e.update, instruction: null }, 'fast').content;
      const check = checkLoss(code, e.update, null, out);
      if (check.lost.length > 0 || check.markersKept > 0) tally.lossy.push(`${src.name} #${n}: lost ${check.lost.map((j) => j + 1).join(',')} markers ${check.markersKept}`);
      if (out === e.expected) tally.exactAll++;
      else if (DUMP) {
        const refused = checkLoss(code, e.update, null, e.expected).lost;
        appendFileSync(DUMP, JSON.stringify({ name: src.name, n, determined: e.determined, update: e.update, expected: e.expected, out, refused }) + '\n');
      }
      if (e.determined) {
        tally.determined++;
        if (out === e.expected) tally.exact++;
      }
    }
    tally.ms = performance.now() - t0;
    expect(tally.edits).toBe(RANDOM);
    expect(tally.lossy.slice(0, 10)).toEqual([]);
    expect(tally.exact / tally.determined).toBeGreaterThanOrEqual(EXACT_FLOOR);
  }, 600_000);

  // Shaped edits: every shape of both tables over the same sources, drawn in turn (the model shapes
  // twice as often, being the ones the held-out sets found missing). Each must pass the oracle and
  // lose no line the expected file keeps (the benchmarks' "lossy"); rates per shape are reported.
  it(`${SHAPED} edits in the shapes models write keep every original line the expected file keeps`, () => {
    const table: Array<[string, typeof SHAPES]> = [
      ...Object.keys(SHAPES).map((k): [string, typeof SHAPES] => [k, SHAPES]),
      ...Object.keys(MODEL_SHAPES).flatMap((k): Array<[string, typeof SHAPES]> => [[k, MODEL_SHAPES], [k, MODEL_SHAPES]]),
    ];
    const t0 = performance.now();
    let done = 0;
    for (let n = 0; done < SHAPED && n < SHAPED * 20; n++) {
      // Every other edit over the other-language samples (most shapes are about their constructs).
      const src = n % 2 === 0 ? samples[Math.floor(n / 2) % samples.length]! : npm[(n * 31) % npm.length]!;
      const [shape, shapes] = table[Math.floor(n / 2) % table.length]!;
      const e = shapeEdit(shape, src.lines, src.lang, rng(hash(`${SEED}${src.name}:${shape}#${n}`)), shapes);
      const code = e?.original ?? src.lines.join('\n') + '\n';
      if (!e || e.expected === code) continue;
      // Determined: the shape says so and every hunk holds a line that pins it (edit-gen.ts pinned).
      const determined = e.determined && pinned(code.replace(/\n$/, '').split('\n'), e.update);
      done++;
      const row = shaped.get(shape) ?? { edits: 0, determined: 0, exact: 0, oracle: 0, lost: 0 };
      shaped.set(shape, row);
      row.edits++;
      const out = mergeApply({ code, update: e.update, instruction: e.instruction }, 'fast').content;
      const check = checkLoss(code, e.update, e.instruction, out);
      const lost = out === e.expected ? [] : lostLines(code, e.expected, out);
      if (check.lost.length > 0 || check.markersKept > 0) row.oracle++;
      if (lost.length > 0) row.lost++;
      if (determined && !(shape in MEASURED_ONLY) && (check.lost.length > 0 || check.markersKept > 0 || lost.length > 0)) shapedLossy.push(`${shape} ${src.name} #${n}: ${lost.slice(0, 2).join(' | ')}`);
      if (determined) row.determined++;
      if (out === e.expected) row.exact++;
      else if (DUMP) appendFileSync(DUMP, JSON.stringify({ shape, name: src.name, n, determined, instruction: e.instruction, orig: code, update: e.update, expected: e.expected, out, lost }) + '\n');
    }
    shapedMs = performance.now() - t0;
    expect(done).toBe(SHAPED);
    expect(shapedLossy.slice(0, 10)).toEqual([]);
  }, 600_000);

  afterAll(() => {
    console.log(`generated edits: ${tally.edits} over ${sources.length} files in ${(tally.ms / 1000).toFixed(1)} s; lossy ${tally.lossy.length}; ` +
      `byte-exact ${tally.exact}/${tally.determined} determined (${((100 * tally.exact) / Math.max(1, tally.determined)).toFixed(1)}%), ${tally.exactAll}/${tally.edits} overall`);
    const rows = [...shaped].map(([k, v]) => `  ${k.padEnd(30)} ${String(v.exact).padStart(4)}/${String(v.edits).padEnd(4)} exact, ${v.determined} determined, oracle-lossy ${v.oracle}, lossy ${v.lost}`);
    console.log(`shaped edits in ${(shapedMs / 1000).toFixed(1)} s (exact/edits, determined, lossy by the oracle and as the benchmarks count):\n${rows.join('\n')}\n  failing: ${shapedLossy.slice(0, 20).join('\n    ')}`);
  });
});
