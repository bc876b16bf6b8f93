// What one chat request costs the event loop before the engine sees it, stage by stage, for a
// typical body and for larger ones: route match, JSON.parse, request validation (the fast path
// and zod), planning, chat template, tokenization, and the first SSE chunk's formatting. Each
// stage is timed alone (median of --reps runs, after warm-up) on this thread. Template and
// tokenization of inputs of OFFLOAD_MIN_CHARS or more go to the engine's text worker pool; for
// those the table shows the wall time and the main thread's CPU time per call (/proc schedstat):
// what the loop pays for the hop. Run it again with SVC_ENGINE_TEXT_INLINE=1 for the inline cost
// of every size (what the loop would pay without the pool).
//   node dist/bench/http/request-stages.js [--reps 200] [--sizes 40,2000,4000,8000,16000,64000]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadModel } from '../../src/engine/index.js';
import { ensureBuiltinModel } from '../../src/model-maker/index.js';
import { Router } from '../../src/http/router.js';
import { chatCompletionRoutes } from '../../src/api/chat-completions.js';
import { chatCompletionRequestSchema, planFromOpenAI } from '../../src/chat/openai-request.js';
import { fastChatCompletionRequest } from '../../src/chat/openai-request-fast.js';
import { parseBody } from '../../src/chat/validate.js';
import { renderPrompt, tokenizePrompt } from '../../src/chat/prompt.js';
import { OpenAIChunker } from '../../src/chat/openai-response.js';
import { formatSseEvent } from '../../src/http/sse-writer.js';
import { OFFLOAD_MIN_CHARS } from '../../src/engine/text-pool.js';
import { median, seededRandom } from '../../src/bench/stats.js';
import { mainThreadCpuMs } from '../chat/bench-run.js';

async function timeIt(reps: number, fn: () => unknown): Promise<number> {
  const out: number[] = [];
  for (let i = 0; i < reps + 5; i++) {
    const t = performance.now();
    const r = fn();
    if (r instanceof Promise) await r;
    if (i >= 5) out.push(performance.now() - t);
  }
  return median(out);
}

/** Wall ms and main-thread CPU ms per call of an async task (CPU over the whole run / reps). */
async function timeOffloaded(reps: number, fn: () => Promise<unknown>): Promise<{ wallMs: number; cpuMs: number }> {
  for (let i = 0; i < 5; i++) await fn();
  const cpu0 = mainThreadCpuMs();
  const walls: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await fn();
    walls.push(performance.now() - t);
  }
  return { wallMs: median(walls), cpuMs: (mainThreadCpuMs() - cpu0) / reps };
}

/** A chat body whose user message is `chars` characters of random lowercase words: distinct per
 *  seed, so the tokenizer's word cache helps no more than it does on fresh text. */
function bodyOf(chars: number, seed: number): object {
  const rand = seededRandom(seed);
  let content = '';
  while (content.length < chars) {
    const len = 2 + Math.floor(rand() * 8);
    for (let i = 0; i < len; i++) content += String.fromCharCode(97 + Math.floor(rand() * 26));
    content += rand() < 0.1 ? '. ' : ' ';
  }
  return { model: 'builtin', stream: true, max_tokens: 64, messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: content.slice(0, chars) }] };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { reps: { type: 'string', default: '200' }, sizes: { type: 'string', default: '40,2000,4000,8000,16000,64000' } } });
  const reps = Number(values.reps);
  const model = await loadModel(await ensureBuiltinModel(mkdtempSync(join(tmpdir(), 'svc-bench-stages-'))), { id: 'builtin', threads: 1, maxSequences: 4 });
  const services = { models: new Map([['builtin', model]]) };
  const router = new Router(chatCompletionRoutes(services));
  const rows: Array<Record<string, string | number>> = [];
  console.error(`text pool from ${OFFLOAD_MIN_CHARS} chars${process.env.SVC_ENGINE_TEXT_INLINE === '1' ? ' (disabled: SVC_ENGINE_TEXT_INLINE=1)' : ''}`);
  for (const chars of values.sizes!.split(',').map(Number)) {
    const bytes = Buffer.from(JSON.stringify(bodyOf(chars, 1)));
    const body = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    const req = fastChatCompletionRequest(body) ?? parseBody(chatCompletionRequestSchema, body);
    const plan = planFromOpenAI(req);
    const text = await renderPrompt(model, plan);
    const row: Record<string, string | number> = { chars, bodyBytes: bytes.length };
    row.routeMs = await timeIt(reps, () => router.match('POST', '/v1/chat/completions'));
    row.jsonParseMs = await timeIt(reps, () => JSON.parse(bytes.toString('utf8')));
    row.validateFastMs = await timeIt(reps, () => fastChatCompletionRequest(body) ?? parseBody(chatCompletionRequestSchema, body));
    row.validateZodMs = await timeIt(reps, () => chatCompletionRequestSchema.parse(body));
    row.planMs = await timeIt(reps, () => planFromOpenAI(req));
    // As the server runs them: inline under OFFLOAD_MIN_CHARS, in the text pool from there on
    // (SVC_ENGINE_TEXT_INLINE=1: always inline). Wall time, and the main thread's CPU per call;
    // each call on a different text (reps + warm-up of them).
    const plans = Array.from({ length: reps + 5 }, (_, i) => planFromOpenAI(chatCompletionRequestSchema.parse(bodyOf(chars, 100 + i))));
    const texts = await Promise.all(plans.map((p) => renderPrompt(model, p)));
    let k = 0;
    const template = await timeOffloaded(reps, () => renderPrompt(model, plans[k++ % plans.length]!));
    row.templateWallMs = template.wallMs;
    row.templateLoopCpuMs = template.cpuMs;
    k = 0;
    const tokenize = await timeOffloaded(reps, () => tokenizePrompt(model, texts[k++ % texts.length]!));
    row.tokenizeWallMs = tokenize.wallMs;
    row.tokenizeLoopCpuMs = tokenize.cpuMs;
    row.promptTokens = (await tokenizePrompt(model, text)).length;
    row.sseFirstChunkMs = await timeIt(reps, () => {
      const chunker = new OpenAIChunker({ id: 'chatcmpl-x', created: 1, model: 'builtin', logprobs: false, legacyFunctions: false }, false);
      return formatSseEvent((chunker as unknown as { chunk(c: unknown[]): object }).chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]));
    });
    rows.push(row);
    console.error(JSON.stringify(row));
  }
  const cols = Object.keys(rows[0]!);
  console.log('| ' + cols.join(' | ') + ' |');
  console.log('|' + cols.map(() => '---').join('|') + '|');
  for (const r of rows) console.log('| ' + cols.map((c) => (typeof r[c] === 'number' && !Number.isInteger(r[c]) ? (r[c] as number).toFixed(3) : String(r[c]))).join(' | ') + ' |');
  model.unload();
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
