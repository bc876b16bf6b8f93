// Requests on their way to the engine: taken in by the HTTP layer for a route that generates, not
// yet submitted. The engine's gathering submit hold (holdSubmitsForTurn in
// src/engine/native-model.ts) keeps a burst's first submits back while such requests are still
// being read, validated and tokenized, so that the burst reaches an idle engine in one step
// instead of a first group whose step then takes the cores from the loop preparing the rest.
// The HTTP layer enters a request (keyed by its AbortSignal, which the route hands to generate())
// and leaves it when the request finishes; the engine leaves it at the submit; the chat runner
// leaves it where it hands the engine a signal of its own. Leaving is idempotent.
// A request can stay here long (a slow body, a long prompt on a worker): waiters look only at how
// recently the newest request still here came in (newestIntakeAt), so an old one holds nobody.

interface Entry {
  at: number;
  prev: Entry | null;
  next: Entry | null;
}

const entries = new Map<object, Entry>();
/** The last of the entries, linked in the order they came in (leaving from the middle is O(1)). */
let newest: Entry | null = null;
const leaveWaiters = new Set<() => void>();

/** A request (by its key) is taken in; `at` is performance.now() unless given (tests). */
export function enterIntake(key: object, at = performance.now()): void {
  if (entries.has(key)) return;
  const e: Entry = { at, prev: newest, next: null };
  if (newest) newest.next = e;
  newest = e;
  entries.set(key, e);
}

/** The request reached the engine, or ended before it did (failed, cancelled, finished). */
export function leaveIntake(key: object | undefined): void {
  if (key === undefined) return;
  const e = entries.get(key);
  if (!e) return;
  entries.delete(key);
  if (e.prev) e.prev.next = e.next;
  if (e.next) e.next.prev = e.prev;
  else newest = e.prev;
  if (leaveWaiters.size) {
    const now = [...leaveWaiters];
    leaveWaiters.clear();
    for (const fn of now) fn();
  }
}

/** Requests in intake now. */
export function intakeCount(): number {
  return entries.size;
}

/** When the newest request still in intake came in (performance.now() time); -Infinity when none. */
export function newestIntakeAt(): number {
  return newest ? newest.at : -Infinity;
}

/** Calls fn once, synchronously, at the next leaveIntake that removes a request; returns a
 *  function that cancels the wait. fn must not throw (it runs inside the leaving caller). */
export function onNextIntakeLeave(fn: () => void): () => void {
  const once = (): void => fn();
  leaveWaiters.add(once);
  return () => {
    leaveWaiters.delete(once);
  };
}
