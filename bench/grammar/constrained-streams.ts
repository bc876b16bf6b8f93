// Constrained decoding at concurrency: C streams of the built-in model, each under its own JSON
// schema (new to the process, so every grammar state's first mask is computed cold), generated
// together in-process beside one unconstrained stream. Reports the constrained streams' tokens/s
// and the plain stream's inter-token latency (p50/p99): masks are computed on the engine's threads
// between forward passes, so their cost shows as steps that take longer for every stream.
//
//   node dist/bench/grammar/constrained-streams.js [--streams 8] [--tokens 160] [--rounds 5] [--threads 2]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadModel } from '../../src/engine/index.js';
import { ensureBuiltinModel } from '../../src/model-maker/index.js';
import { GREEDY_SAMPLING } from '../../src/engine/sampling.js';
import { median, summarize } from '../../src/bench/stats.js';

/** A record schema no earlier call produced: its keys, enum, pattern counts and bounds vary with k. */
function schemaFor(k: number): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      [`id_${k}`]: { type: 'string', format: 'uuid' },
      [`at_${k}`]: { type: 'string', format: 'date-time' },
      [`code_${k}`]: { type: 'string', pattern: `^[A-Z]{${1 + (k % 4)}}-[0-9]{${2 + (k % 3)}}$` },
      [`price_${k}`]: { type: 'number', minimum: k % 7, maximum: 100 + k, multipleOf: 0.25 },
      [`tags_${k}`]: { type: 'array', items: { type: 'string', enum: [`t${k}a`, `t${k}b`, `t${k}c`] }, maxItems: 3 },
      [`note_${k}`]: { type: 'string', maxLength: 40 + (k % 5) },
    },
    required: [`id_${k}`, `at_${k}`, `code_${k}`, `price_${k}`, `tags_${k}`, `note_${k}`],
    additionalProperties: false,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      streams: { type: 'string', default: '8' },
      tokens: { type: 'string', default: '160' },
      rounds: { type: 'string', default: '5' },
      threads: { type: 'string', default: '2' },
    },
  });
  const streams = Number(values.streams);
  const tokens = Number(values.tokens);
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-constrained-'));
  const model = await loadModel(await ensureBuiltinModel(dataDir), { id: 'builtin', threads: Number(values.threads), maxSequences: streams + 1 });
  const prompt = await model.tokenize('<|im_start|>user\nReply in JSON.<|im_end|>\n<|im_start|>assistant\n', { addSpecial: false, parseSpecial: true });
  // Each process numbers its schemas from its pid, so that no two runs share a compiled grammar.
  let next = process.pid * 1000;
  const round = async (): Promise<{ tokS: number; itl: number[] }> => {
    let done = false;
    const itl: number[] = [];
    const plain = (async () => {
      let last = 0;
      while (!done) {
        await model.generate({ prompt, maxTokens: 32, sampling: { ...GREEDY_SAMPLING, temperature: 1, seed: next } }, () => {
          const now = performance.now();
          if (last && !done) itl.push(now - last);
          last = now;
        });
        last = 0;
      }
    })();
    const t0 = performance.now();
    const results = await Promise.all(
      Array.from({ length: streams }, (_, i) =>
        model.generate(
          { prompt, maxTokens: tokens, sampling: { ...GREEDY_SAMPLING, temperature: 1, seed: i }, grammar: { kind: 'json_schema', schema: schemaFor(next++) } },
          () => {},
        ),
      ),
    );
    const wall = performance.now() - t0;
    done = true;
    await plain;
    const n = results.reduce((a, r) => a + r.completionTokens, 0);
    return { tokS: (n / wall) * 1000, itl };
  };
  await round(); // warm-up: the vocabulary's grammar tables and the shared string/number masks
  const tokS: number[] = [];
  const itl: number[] = [];
  for (let r = 0; r < Number(values.rounds); r++) {
    const x = await round();
    tokS.push(x.tokS);
    itl.push(...x.itl);
  }
  model.unload();
  rmSync(dataDir, { recursive: true, force: true });
  const s = summarize(itl);
  console.log(`constrained streams: ${streams} streams × ${tokens} tokens, each under a new schema, beside one plain stream; ${values.rounds} rounds`);
  console.log(`constrained tok/s (median of rounds): ${median(tokS).toFixed(1)}  (rounds: ${tokS.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`plain stream ITL ms: p50 ${s.p50.toFixed(2)}  p90 ${s.p90.toFixed(2)}  p99 ${s.p99.toFixed(2)}  max ${s.max.toFixed(2)}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
