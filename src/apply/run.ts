// One apply request's CPU work, as the piscina worker runs it: parse the message, merge, count
// tokens. Pure (no I/O), so tests and benchmarks can also call it in-process.
import { mergeApply, type ApplyModelId, type MergeMode } from './merge.js';
import { describeReport } from './report.js';
import { parseApplyContent } from './parse.js';
import { completionTokens, promptTokenCount } from './tokens.js';

export interface ApplyTask {
  content: string;
  mode: MergeMode;
  maxTokens: number | null;
  /** Pool warm-up (pool.ts): the worker first waits for its grammars to be loaded. */
  warm?: boolean;
}

export type ApplyTaskResult =
  | {
      ok: true;
      content: string;
      model: ApplyModelId;
      finishReason: 'stop' | 'length';
      promptTokens: number;
      completionTokens: number;
      confidence: number;
      ambiguities: string[];
      /** What the merge did, one header-safe line (see report.ts). */
      report: string;
      /** Milliseconds spent merging (without parsing and token counting). */
      mergeMs: number;
    }
  | { ok: false; message: string };

export function runApplyTask(task: ApplyTask): ApplyTaskResult {
  const parsed = parseApplyContent(task.content);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const t0 = performance.now();
  const merged = mergeApply(parsed.input, task.mode);
  const mergeMs = performance.now() - t0;
  const completion = completionTokens(merged.content, task.maxTokens);
  return {
    ok: true,
    content: completion.content,
    model: merged.model,
    finishReason: completion.truncated ? 'length' : 'stop',
    promptTokens: promptTokenCount(task.content),
    completionTokens: completion.tokens,
    confidence: merged.confidence,
    ambiguities: merged.ambiguities,
    report: describeReport(merged.report),
    mergeMs,
  };
}
