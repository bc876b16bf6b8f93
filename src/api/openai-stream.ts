// The shape every OpenAI-format SSE answer shares: chunks go out as they come, the closing ones
// (last finish chunks, usage, [DONE]) leave with the end of the body, and a failure becomes an
// HTTP error before anything was sent or an error chunk after.
import { openaiErrorBody } from '../errors.js';
import { apiErrorOf } from './engine-error-mapping.js';
import type { RequestContext, SseEvent } from '../http/types.js';
import { SseQueue } from '../http/sse-queue.js';

/** Runs `produce`, which sends chunks through `out` and pushes the closing events onto `tail`. */
export async function streamOpenAi(ctx: RequestContext, produce: (out: SseQueue, tail: SseEvent[]) => Promise<void>): Promise<void> {
  const out = new SseQueue(ctx);
  const tail: SseEvent[] = [];
  try {
    await produce(out, tail);
  } catch (err) {
    if (!out.started && tail.length === 0) throw err;
    // Mid-stream failure: the SDK raises APIError for a chunk with an `error` key.
    tail.push({ data: openaiErrorBody(apiErrorOf(err)) as object });
  } finally {
    await out.end(tail);
  }
}
