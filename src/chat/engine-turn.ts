// Requests that arrive together reach the engine together. uWS hands the requests of one I/O
// batch to their handlers one after another; submitting each as soon as its prompt is built lets
// the engine start a step for the first one and compete (2 compute threads on a small machine)
// with the event loop that is still preparing the rest, which then miss that step. Waiting for the
// end of the current I/O batch (setImmediate: the check phase right after the poll phase) costs
// a lone request a few µs and lets a burst be submitted in one go.

let pending: Promise<void> | null = null;

/** Resolves after the I/O callbacks of the current event-loop turn (one setImmediate for all callers). */
export function endOfIoBatch(): Promise<void> {
  pending ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      pending = null;
      resolve();
    }),
  );
  return pending;
}
