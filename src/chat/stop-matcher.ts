// Stop sequences over a token stream: text is released as soon as it cannot be the start of a stop
// sequence, so only the longest suffix that is a proper prefix of some stop string is held back.

export interface StopPush {
  /** Text safe to show now (never includes any part of a matched stop sequence). */
  emit: string;
  /** The stop sequence that matched, when one did; generation should end. */
  matched: string | null;
}

export class StopMatcher {
  private readonly stops: string[];
  private held = '';
  private done = false;

  constructor(stops: readonly string[]) {
    this.stops = stops.filter((s) => s.length > 0);
  }

  get active(): boolean {
    return this.stops.length > 0;
  }

  push(text: string): StopPush {
    if (this.done) return { emit: '', matched: null };
    if (this.stops.length === 0) return { emit: text, matched: null };
    const buf = this.held + text;
    // Earliest match wins; on a tie at one position, the longer stop string.
    let at = -1;
    let which: string | null = null;
    for (const s of this.stops) {
      const i = buf.indexOf(s);
      if (i >= 0 && (at < 0 || i < at || (i === at && s.length > (which?.length ?? 0)))) {
        at = i;
        which = s;
      }
    }
    if (which !== null) {
      this.done = true;
      this.held = '';
      return { emit: buf.slice(0, at), matched: which };
    }
    const keep = this.partialSuffix(buf);
    this.held = buf.slice(buf.length - keep);
    return { emit: buf.slice(0, buf.length - keep), matched: null };
  }

  /** End of generation: whatever was held back is ordinary text. */
  flush(): string {
    const rest = this.done ? '' : this.held;
    this.held = '';
    return rest;
  }

  /** Length of the longest suffix of buf that is a proper prefix of a stop string. */
  private partialSuffix(buf: string): number {
    let best = 0;
    for (const s of this.stops) {
      const max = Math.min(s.length - 1, buf.length);
      for (let k = max; k > best; k--) {
        if (buf.endsWith(s.slice(0, k))) {
          best = k;
          break;
        }
      }
    }
    return best;
  }
}
