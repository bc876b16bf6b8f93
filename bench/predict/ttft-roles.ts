// Time to first token of the prediction service for long windows (issue #23's benchmark): a
// decoder whose prompt is prefilled by a remote prefiller vs a standalone node, for 8k- and
// 16k-token prompts neither node has seen. Three `svc predict` processes as in
// test/predict/roles-harness.ts (one engine thread each) on the built-in shape with a 32k context;
// each request has max_tokens 1, so its latency is the time to the first token. Per window and
// role: the median over --reps requests, and for the decoder how many of its prompt's blocks
// came from the prefiller (a stalled transfer falls back to a local prefill, which shows here).
//   node dist/bench/predict/ttft-roles.js [--windows 8192,16384] [--reps 3] [--out F]
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { summarize } from '../../src/bench/stats.js';
import { startSvc, type SvcProcess } from '../../src/bench/svc-process.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { builtinModel } from './bench-model.js';
import { longSession } from './sessions.js';

const CTX = 32768;
const recordings = readdirSync(join(PACKAGE_ROOT, 'test/fixtures/rrweb'))
  .filter((f) => f.endsWith('.ndjson'))
  .map((f) => readFileSync(join(PACKAGE_ROOT, 'test/fixtures/rrweb', f), 'utf8').trim().split('\n'));

interface Answer {
  ms: number;
  promptTokens: number;
  cachedTokens: number;
  dropped: number;
}

async function predict(url: string, lines: string[]): Promise<Answer> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/predict`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: lines.join('\n'), max_tokens: 1, temperature: 0 }) });
  if (res.status !== 200) throw new Error(`predict ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { usage: { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } } };
  return { ms: performance.now() - t0, promptTokens: body.usage.prompt_tokens, cachedTokens: body.usage.prompt_tokens_details.cached_tokens, dropped: Number(res.headers.get('x-prompt-events-dropped')) };
}

interface KvTransferHealth {
  blocks_imported: number;
  local_prefills_while_degraded: number;
}

async function health(url: string): Promise<{ status: string; kv_transfer?: KvTransferHealth }> {
  return (await (await fetch(`${url}/health`)).json()) as { status: string; kv_transfer?: KvTransferHealth };
}

/** A session no node has seen (its own page address in the first line) of about `target` tokens. */
function freshSession(id: number, linesPerToken: number, target: number): string[] {
  const lines = longSession(recordings, Math.ceil(target * linesPerToken) + 10, id);
  return [JSON.stringify({ type: 4, data: { href: `http://bench/ttft/${id}`, width: 1024, height: 700 }, timestamp: 0 }), ...lines.slice(2, 2 + Math.floor(target * linesPerToken))];
}

export async function runTtftRoles(windows: number[], reps: number): Promise<Record<string, unknown>> {
  const model = await builtinModel(CTX);
  const procs: SvcProcess[] = [];
  const start = async (role: string, extra: string[] = []) => {
    const p = await startSvc(['predict', '--role', role, '--port', '0', '--model', model, '--threads', '1', '--data-dir', mkdtempSync(join(tmpdir(), `svc-ttft-${role}-`)), ...extra]);
    procs.push(p);
    return p;
  };
  try {
    const [standalone, prefiller] = await Promise.all([start('standalone'), start('prefiller')]);
    const decoder = await start('decoder', ['--prefiller', prefiller.url]);
    // Warm both entry points; measure tokens per event line of the recorded sessions.
    const probe = longSession(recordings, 202, 1).slice(2);
    const probed = await predict(standalone.url, probe);
    await predict(decoder.url, longSession(recordings, 40, 2));
    const linesPerToken = probe.length / probed.promptTokens;
    const out: Record<string, unknown> = { model: `built-in shape (qwen2 dim 128, 4 layers, q8_0), context ${CTX}, 1 engine thread per process`, reps };
    let id = 1000;
    for (const target of windows) {
      const rows: Record<string, Answer[]> = { standalone: [], decoder: [] };
      const blocks: number[] = [];
      let degraded = 0;
      for (let rep = 0; rep < reps; rep++) {
        for (const role of rep % 2 === 0 ? ['standalone', 'decoder'] : ['decoder', 'standalone']) {
          const lines = freshSession(id++, linesPerToken, target);
          if (role === 'standalone') {
            rows.standalone!.push(await predict(standalone.url, lines));
            continue;
          }
          const before = (await health(decoder.url)).kv_transfer!;
          rows.decoder!.push(await predict(decoder.url, lines));
          const after = await health(decoder.url);
          blocks.push(after.kv_transfer!.blocks_imported - before.blocks_imported);
          if (after.kv_transfer!.local_prefills_while_degraded > before.local_prefills_while_degraded) degraded++;
        }
      }
      const row = (as: Answer[]) => ({ promptTokens: summarize(as.map((a) => a.promptTokens)).p50, cachedTokens: as.map((a) => a.cachedTokens), dropped: as.map((a) => a.dropped), ttftMs: summarize(as.map((a) => a.ms)), ttftMsEach: as.map((a) => Math.round(a.ms)) });
      out[`window_${target}`] = {
        standalone: row(rows.standalone!),
        // cachedTokens of a decoder request = the tokens imported from the prefiller (its own cache
        // never saw the session): fewer than the prompt's full blocks means a local fallback.
        decoder: { ...row(rows.decoder!), blocksImported: blocks, requestsPrefilledLocallyWhileDegraded: degraded },
        decoderOverStandaloneP50: summarize(rows.decoder!.map((a) => a.ms)).p50 / summarize(rows.standalone!.map((a) => a.ms)).p50,
      };
      console.error(`ttft: window ${target} done`);
    }
    return out;
  } finally {
    await Promise.all(procs.map((p) => p.stop('SIGKILL')));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, windows: { type: 'string' }, reps: { type: 'string' } } });
  const windows = (values.windows ?? '8192,16384').split(',').map(Number);
  const result = await runTtftRoles(windows, Number(values.reps ?? 3));
  console.log(JSON.stringify(result, null, 2));
  if (values.out) {
    mkdirSync(dirname(values.out), { recursive: true });
    writeFileSync(values.out, JSON.stringify(result, null, 2) + '\n');
  }
}
