// Which events of a session go into the prompt when the whole session does not fit the context.
//
// Kept: a header of the events a prediction needs from before the window (the latest meta event,
// and the latest full snapshot when it takes at most SNAPSHOT_SHARE of the budget), then every
// event from the window's start to the end. Events are kept or dropped whole, never cut.
//
// The start is stable for a growing session: it is chosen among anchors, the first event at or
// after each multiple of a fixed step in the session's characters. An anchor depends only on the
// events before it, so appending events never moves it; the start stays on one anchor until the
// session outgrows the window, then jumps to a later anchor (about half the budget further for
// ordinary recordings). Requests inside one window share header + events from the start, the
// prefix the engine's prefix cache reuses. The header likewise depends only on events before the
// start. When the coarse grid leaves the window less than MIN_FILL of the budget (token-dense
// events), finer grids (halved steps, down to every event) are tried.

import type { EventKind } from './events.js';

/** Largest part of the budget a pinned full snapshot may take. */
export const SNAPSHOT_SHARE = 1 / 3;
/** A window with fewer tokens than this share of the budget tries a finer anchor grid. */
export const MIN_FILL = 1 / 4;
/** Coarsest anchor step, in characters per budget token: rrweb event lines run about 2 characters
 *  per token (3.3 in snapshots), so a step of `budget` characters is about half the budget. */
export const STEP_CHARS_PER_TOKEN = 1;
/** A line longer than this many characters per token still available cannot fit and is not
 *  tokenized (rrweb JSON averages 2-3.5; this only spares tokenizing megabyte snapshots). */
export const MAX_CHARS_PER_TOKEN = 8;
/** Finest grid step before the last resort of every event being an anchor. */
const MIN_STEP_CHARS = 64;

export interface SessionLines {
  /** Event lines, in order. */
  readonly lines: readonly string[];
  readonly kinds: readonly EventKind[];
  /** Tokens of line i (as it appears in the prompt, newline included); memoized by the caller. */
  tokens(i: number): number;
}

export interface PromptWindow {
  /** Indices of the kept lines, in prompt order (header first, then the window). */
  kept: number[];
  /** Index of the first line of the window proper (lines.length when only the header is kept). */
  start: number;
  /** Lines kept from before `start` (meta event, full snapshot). */
  headerLines: number;
  /** Lines dropped. */
  dropped: number;
  /** Tokens of the kept lines. */
  tokens: number;
}

/** Picks the lines to keep within `budget` tokens. Returns null when not even one event fits. */
export function chooseWindow(session: SessionLines, budget: number): PromptWindow | null {
  const { lines, kinds } = session;
  const n = lines.length;
  // Suffix token sums from the end, as far back as they fit.
  const suffix = new Map<number, number>();
  suffix.set(n, 0);
  let first = n; // earliest line whose suffix fits
  let acc = 0;
  for (let i = n - 1; i >= 0; i--) {
    if ((lines[i] as string).length > (budget - acc) * MAX_CHARS_PER_TOKEN) break;
    const t = session.tokens(i);
    if (acc + t > budget) break;
    acc += t;
    suffix.set(i, acc);
    first = i;
  }
  if (first === 0) return { kept: range(0, n), start: 0, headerLines: 0, dropped: 0, tokens: acc };

  // Character offset of each line in the session (newline included), for the anchor grid.
  const offsets = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) offsets[i + 1] = (offsets[i] as number) + (lines[i] as string).length + 1;

  const headerCache = new Map<number, { lines: number[]; tokens: number }>();
  const header = (start: number) => {
    let h = headerCache.get(start);
    if (!h) {
      h = headerBefore(session, start, budget);
      headerCache.set(start, h);
    }
    return h;
  };
  const fits = (start: number): number | null => {
    const tail = suffix.get(start);
    if (tail === undefined) return null;
    const h = header(start);
    return h.tokens + tail <= budget ? h.tokens + tail : null;
  };

  let best: { start: number; tokens: number } | null = null;
  for (let step = Math.max(MIN_STEP_CHARS, budget * STEP_CHARS_PER_TOKEN); ; step /= 2) {
    const everyLine = step < MIN_STEP_CHARS;
    const found = firstFittingAnchor(offsets, first, n, everyLine ? 0 : step, fits);
    if (found) {
      best = found;
      if (found.tokens >= MIN_FILL * budget) break;
    }
    if (everyLine) break;
  }
  if (!best) return null;
  const h = header(best.start);
  if (h.lines.length === 0 && best.start === n) return null;
  const kept = [...h.lines, ...range(best.start, n)];
  return { kept, start: best.start, headerLines: h.lines.length, dropped: n - kept.length, tokens: best.tokens };
}

/** The first anchor in [from, n] (n: header only) whose window fits; step 0: every line is one. */
function firstFittingAnchor(offsets: Float64Array, from: number, n: number, step: number, fits: (start: number) => number | null): { start: number; tokens: number } | null {
  for (let i = from; i <= n; i++) {
    if (step > 0 && i < n && !isAnchor(offsets, i, step)) continue;
    const tokens = fits(i);
    if (tokens !== null) return { start: i, tokens };
  }
  return null;
}

/** Line i is an anchor when a multiple of `step` falls in (offset of line i-1, offset of line i]. */
function isAnchor(offsets: Float64Array, i: number, step: number): boolean {
  if (i === 0) return true;
  return Math.floor((offsets[i - 1] as number) / step) !== Math.floor((offsets[i] as number) / step);
}

/** The latest meta event and the latest full snapshot before `start`, when they fit their share. */
function headerBefore(session: SessionLines, start: number, budget: number): { lines: number[]; tokens: number } {
  let meta = -1;
  let snapshot = -1;
  for (let i = start - 1; i >= 0 && (meta < 0 || snapshot < 0); i--) {
    const kind = session.kinds[i];
    if (kind === 'meta' && meta < 0) meta = i;
    else if (kind === 'snapshot' && snapshot < 0) snapshot = i;
  }
  const picked: number[] = [];
  let tokens = 0;
  const share = Math.floor(budget * SNAPSHOT_SHARE);
  for (const i of [meta, snapshot].filter((x) => x >= 0).sort((a, b) => a - b)) {
    if ((session.lines[i] as string).length > share * MAX_CHARS_PER_TOKEN) continue;
    const t = session.tokens(i);
    if (t > share) continue;
    picked.push(i);
    tokens += t;
  }
  return { lines: picked, tokens };
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) out.push(i);
  return out;
}
