// Per-key token bucket: `burst` tokens, refilled at `rps` tokens per second. A request takes one
// token; with none left it is refused with the seconds until one is back (Retry-After).
// Buckets exist only for keys that passed auth, so the map is bounded by the configured keys.

export interface RateLimit {
  /** Sustained requests per second per key; 0 turns limiting off. */
  rps: number;
  /** Bucket size: requests a key may send at once after being idle. */
  burst: number;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

const OK: RateDecision = { ok: true };

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly limit: RateLimit,
    /** Monotonic clock in ms (injected by tests). */
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(limit.rps >= 0) || !(limit.burst >= 1 || limit.rps === 0)) throw new Error('rate limit: rps >= 0 and burst >= 1 required');
  }

  get enabled(): boolean {
    return this.limit.rps > 0;
  }

  take(key: string): RateDecision {
    if (!this.enabled) return OK;
    const t = this.now();
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: this.limit.burst, at: t };
      this.buckets.set(key, b);
    } else {
      b.tokens = Math.min(this.limit.burst, b.tokens + ((t - b.at) / 1000) * this.limit.rps);
      b.at = t;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return OK;
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / this.limit.rps)) };
  }
}
