// Piscina worker for the apply models: the merge and token counting run here, never on the
// HTTP event loop. Loaded from dist/src/apply/worker.js (see pool.ts).
import { runApplyTask, type ApplyTask, type ApplyTaskResult } from './run.js';
import { preloadGrammars } from './syntax/grammars.js';
import { prepareSyntax } from './syntax/prepare.js';
import { servedTokenizer } from './tokens.js';

// Load the tree-sitter grammars (asynchronous WASM compiles) and build the tokenizer while the
// thread starts, not inside the first request.
const grammarsReady = preloadGrammars();
servedTokenizer();

export default async function applyWorker(task: ApplyTask): Promise<ApplyTaskResult> {
  if (task.warm) await grammarsReady;
  // A request that comes before the preload is done waits for its own language's grammar only.
  await prepareSyntax(task.content);
  return runApplyTask(task);
}
