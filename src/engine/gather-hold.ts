// When the gathering submit hold of an idle engine ends (mode 2 of holdSubmitsForTurn in
// native-model.ts). A burst of HTTP requests reaches the loop over several I/O turns, and a turn
// can bring no submit while requests are still on their way: their bodies are being read, or they
// wait for the end of their I/O batch (endOfIoBatch, a setImmediate queued after this hold's own
// check), or the client has not written them yet. Released at such a turn, the first group's step
// takes both cores from the loop preparing the rest, which then miss it. So the hold stays open
// while each loop turn brings new submits (as before), and now also while requests the HTTP layer
// took in are not yet submitted (src/intake.ts): then it waits for the next of them to reach the
// engine (or fail) instead of spinning the loop. Never past maxMs after it opened: a lone request,
// or a body that never completes, delays the submits by at most that; a request that came in more
// than maxMs before the hold opened is not waited for at all (a stuck body holds nobody).

export interface GatherDeps {
  /** ms, monotonic (performance.now). */
  now(): number;
  /** Runs fn in the next loop turn's check phase (setImmediate). */
  nextTurn(fn: () => void): void;
  /** Runs fn after ms (setTimeout); returns a cancel. */
  after(ms: number, fn: () => void): () => void;
  /** Submits made so far (the hold watches it change). */
  submits(): number;
  /** When the newest request still in intake came in; -Infinity when none (intake.ts). */
  newestIntakeAt(): number;
  /** Calls fn at the next request leaving intake; returns a cancel (intake.ts). */
  onNextIntakeLeave(fn: () => void): () => void;
}

/** Why a gathering hold ended (for tests and benchmarks). */
export type GatherEnd = 'quiet' | 'bound';

/** Opens a gather at `deps.now()` and calls release exactly once, when it ends. */
export function gatherSubmits(deps: GatherDeps, maxMs: number, release: (why: GatherEnd) => void): void {
  const opened = deps.now();
  const oldestWaitedFor = opened - maxMs;
  let seen = -1; // the first check always waits one more turn
  let done = false;
  let cancelTimer: (() => void) | null = null;
  let cancelWait: (() => void) | null = null;
  const end = (why: GatherEnd): void => {
    if (done) return;
    done = true;
    cancelTimer?.();
    cancelWait?.();
    release(why);
  };
  const check = (): void => {
    if (done) return;
    cancelWait = null;
    const elapsed = deps.now() - opened;
    if (elapsed >= maxMs) return end('bound');
    const n = deps.submits();
    if (n !== seen) {
      // This turn brought submits: the next may bring more.
      seen = n;
      deps.nextTurn(check);
    } else if (deps.newestIntakeAt() >= oldestWaitedFor) {
      // Requests are still on their way to the engine: wait for the next to arrive, then check
      // one turn later (the requests of its I/O batch submit in that turn's check phase).
      cancelWait = deps.onNextIntakeLeave(() => deps.nextTurn(check));
      cancelTimer ??= deps.after(maxMs - elapsed, () => end('bound'));
    } else end('quiet');
  };
  deps.nextTurn(check);
}
