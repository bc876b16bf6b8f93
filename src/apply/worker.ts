// Piscina worker for the apply models: the merge and token counting run here, never on the
// HTTP event loop. Loaded from dist/src/apply/worker.js (see pool.ts).
import { runApplyTask, type ApplyTask, type ApplyTaskResult } from './run.js';
import { preloadGrammars } from './syntax/grammars.js';
import { prepareSyntax } from './syntax/prepare.js';
import { servedTokenizer } from './tokens.js';

// Build the tokenizer while the thread starts, not inside the first request. All 17 tree-sitter
// grammars cost ~90 MB per thread, so they load on first use of each language unless
// SVC_APPLY_PRELOAD_GRAMMARS=1 asks for them at start (first Kotlin/Swift/C# merges ~0.5 s sooner).
const grammarsReady = process.env.SVC_APPLY_PRELOAD_GRAMMARS === '1' ? preloadGrammars() : Promise.resolve();
servedTokenizer();

export default async function applyWorker(task: ApplyTask): Promise<ApplyTaskResult> {
  if (task.warm) await grammarsReady;
  // A request that comes before the preload is done waits for its own language's grammar only.
  await prepareSyntax(task.content);
  return runApplyTask(task);
}
