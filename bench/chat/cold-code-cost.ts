// How much slower the server's per-request and per-token code runs when it last ran a while ago,
// as it does beside the engine (a token every ~1 ms, a request now and then). Each sample does
// `--gap` ms of unrelated work that touches almost no memory (a clock loop), then times the first
// run of a step after it; back to back, the same step right after itself. On the dev VM even a
// 150-byte JSON.parse is ~20x slower after 4 ms (the CPU's caches and predictors are not kept for
// us across timer ticks and host activity), so per-token costs measured back to back understate
// what a woken event loop pays.
//
//   node dist/bench/chat/cold-code-cost.js [--gaps 0,0.5,1,2,4] [--samples 300]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadModel } from '../../src/engine/index.js';
import { ensureBuiltinModel } from '../../src/model-maker/index.js';
import { prepareOpenAIChat } from '../../src/chat/openai-chat.js';
import { formatSseEvent } from '../../src/http/sse-writer.js';
import { median } from '../../src/bench/stats.js';
import { BENCH_MESSAGES } from './bench-run.js';

function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { gaps: { type: 'string', default: '0,0.5,1,2,4' }, samples: { type: 'string', default: '300' } } });
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-cold-'));
  const model = await loadModel(await ensureBuiltinModel(dataDir), { id: 'builtin', threads: 1, maxSequences: 4 });
  const services = { models: new Map([['builtin', model]]) };
  const bodyText = JSON.stringify({ model: 'builtin', messages: BENCH_MESSAGES, max_tokens: 32, temperature: 0, stream: true });
  const chunk = { id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 1, model: 'builtin', choices: [{ index: 0, delta: { content: ' sea' }, logprobs: null, finish_reason: null }] };
  const steps: Array<[string, () => unknown]> = [
    ['JSON.parse of the request body', () => JSON.parse(bodyText)],
    ['request preparation (validate, template, tokenize)', () => prepareOpenAIChat(services, JSON.parse(bodyText))],
    ['one token chunk as an SSE event', () => formatSseEvent(chunk)],
  ];
  const gaps = values.gaps.split(',').map(Number);
  console.log(`first run after a gap of unrelated work, µs, median of ${values.samples}:`);
  console.log(`| step | ${gaps.map((g) => `gap ${g} ms`).join(' | ')} |`);
  console.log(`|---|${gaps.map(() => '---|').join('')}`);
  for (const [name, step] of steps) {
    const row: string[] = [];
    for (const gap of gaps) {
      const t: number[] = [];
      for (let i = 0; i < Number(values.samples); i++) {
        spin(gap);
        const a = performance.now();
        await step();
        t.push((performance.now() - a) * 1000);
      }
      row.push(median(t).toFixed(1));
    }
    console.log(`| ${name} | ${row.join(' | ')} |`);
  }
  model.unload();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
