// Piscina worker for the apply models: the merge and token counting run here, never on the
// HTTP event loop. Loaded from dist/src/apply/worker.js (see pool.ts).
import { runApplyTask, type ApplyTask, type ApplyTaskResult } from './run.js';
import { prepareSyntax } from './syntax/prepare.js';
import { servedTokenizer } from './tokens.js';

// Build the tokenizer while the thread starts, not inside the first request.
servedTokenizer();

export default async function applyWorker(task: ApplyTask): Promise<ApplyTaskResult> {
  // Tree-sitter grammars load once per thread, on the first request in their language.
  await prepareSyntax(task.content);
  return runApplyTask(task);
}
