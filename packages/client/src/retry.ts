// Retries of transient failures: 408, 429 (after its Retry-After), 500, 502, 503, 504, timeouts
// and network errors (connection refused or reset), with exponential backoff and jitter, bounded
// by a retry count and by a total deadline that no wait may cross.

export interface RetryPolicy {
  /** Retries after the first attempt (default 4). */
  maxRetries: number;
  /** Time for one attempt, ms (default 60 000). */
  timeoutMs: number;
  /** Time for all attempts and waits together, ms (default 120 000). */
  deadlineMs: number;
  /** First backoff, ms (default 250); doubles per retry. */
  baseDelayMs: number;
  /** Largest backoff, ms (default 8 000). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 4, timeoutMs: 60_000, deadlineMs: 120_000, baseDelayMs: 250, maxDelayMs: 8_000 };

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUS.has(status);
}

/** Backoff before retry `retry` (0-based): half fixed, half random ("equal jitter"), so that many
 *  clients failing together do not retry together. */
export function backoffMs(p: RetryPolicy, retry: number, random: () => number): number {
  const cap = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** retry);
  return cap / 2 + random() * (cap / 2);
}

/** Retry-After as ms: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (!header) return null;
  const s = header.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1000;
  const at = Date.parse(s);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
