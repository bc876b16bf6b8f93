// Request abort controllers made ahead of need. Node 20 builds an AbortSignal as an EventTarget and
// then re-prototypes it, which costs 14-18 µs on the 2-core VM (20,000 in a plain loop, Node
// 20.20); every streamed chat request needs one, so a burst of 64 spent about 1 ms of event-loop
// time on them before its last request reached the engine. The server takes a fresh controller
// from a small stock and tops the stock up on a timer, a few at a time, in the loop's quieter
// moments. A controller never handed out is exactly a new one: nothing is reused after a request.
import { setMaxListeners } from 'node:events';
import { primeAbortWatch } from '../abort-watch.js';

/** Controllers kept ready: one burst's worth (the engine runs 64 sequences at once by default). */
export const STOCK = 64;
/** Made per refill turn: a refill holds the loop for ~0.2-0.3 ms at most. */
const REFILL_BATCH = 16;
/** A refill waits this long after a take, so that a burst being taken in is not interrupted. */
const REFILL_DELAY_MS = 5;

const stock: AbortController[] = [];
let refillPending = false;

function make(): AbortController {
  const c = new AbortController();
  // Each of a request's choices (n ≤ 16) listens on it, twice at most: past Node's default of 10
  // it printed a MaxListenersExceededWarning. (Reading .signal also builds the signal now.)
  setMaxListeners(64, c.signal);
  // The engine's abort listener, added here rather than per request (src/abort-watch.ts).
  primeAbortWatch(c.signal);
  return c;
}

function refill(): void {
  refillPending = false;
  for (let i = 0; i < REFILL_BATCH && stock.length < STOCK; i++) stock.push(make());
  scheduleRefill();
}

function scheduleRefill(): void {
  if (refillPending || stock.length >= STOCK) return;
  refillPending = true;
  // unref: a stock being topped up never keeps the process alive.
  setTimeout(refill, REFILL_DELAY_MS).unref();
}

/** A fresh controller whose signal allows 64 listeners; from the stock when there is one. */
export function takeAbortController(): AbortController {
  const c = stock.pop() ?? make();
  scheduleRefill();
  return c;
}

/** Fills the stock now (server start), so that the first burst finds it full. */
export function stockAbortControllers(): void {
  while (stock.length < STOCK) stock.push(make());
}

/** Controllers in stock (tests). */
export function abortControllersInStock(): number {
  return stock.length;
}
