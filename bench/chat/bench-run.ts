// Pieces the chat benches share: the chat they stream, a run of the HTTP client thread, and the
// main thread's CPU clock.
import { readFileSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import type { EngineModel } from '../../src/engine/index.js';
import { eosBan } from '../../src/engine/sampling.js';
import type { ChatRequestBody } from '../../src/bench/client.js';
import { buildPrompt } from '../../src/chat/prompt.js';
import { chatCompletionRequestSchema, planFromOpenAI } from '../../src/chat/openai-request.js';
import type { ClientJob, ClientResult } from './http-client-worker.js';

/** The chat every chat bench sends. */
export const BENCH_MESSAGES = [{ role: 'user', content: 'Write a short paragraph about the sea.' }];

export interface BenchChat {
  /** The streamed, greedy request, with the end-of-generation tokens banned so that every stream
   *  yields max_tokens tokens. */
  body: ChatRequestBody;
  logitBias: Record<number, number>;
  /** The prompt tokens the route builds from `body`, for the same request in-process. */
  prompt: Uint32Array;
}

export async function benchChat(model: EngineModel, maxTokens: number): Promise<BenchChat> {
  const logitBias = eosBan(model.info);
  const body = { model: 'builtin', messages: BENCH_MESSAGES, max_tokens: maxTokens, temperature: 0, logit_bias: logitBias, stream: true };
  const prompt = (await buildPrompt(model, planFromOpenAI(chatCompletionRequestSchema.parse(body)))).tokens;
  return { body, logitBias, prompt };
}

/** CPU time of this (the main) thread in ms, from /proc (ns resolution); NaN where there is none. */
export function mainThreadCpuMs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

/** Runs one job on the client thread (http-client-worker.js); rejects if any stream failed. */
export function runClientJob(worker: Worker, job: ClientJob): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (m: ClientResult) => {
      worker.off('error', reject);
      const bad = m.samples.find((s) => !s.ok);
      if (bad) return reject(new Error(`HTTP stream failed (port ${job.port}, ${m.samples.filter((s) => !s.ok).length} of ${m.samples.length}): ${bad.error}`));
      resolve(m);
    });
    worker.postMessage(job);
  });
}
