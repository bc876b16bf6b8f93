// A microtask without Node's queueMicrotask wrapper. queueMicrotask creates an AsyncResource per
// call (async id, init hooks, a bound function: about 0.9 µs here against 0.3 µs for a promise
// reaction), and the streaming path queues several per request and one per stream per engine step.
// Callbacks given here must not throw: a throw becomes an unhandled rejection (which, like an
// uncaught exception, ends the process by default) instead of an uncaught exception.
const RESOLVED = Promise.resolve();

export function microtask(fn: () => void): void {
  void RESOLVED.then(fn);
}
