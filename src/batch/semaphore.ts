// Counting semaphore whose waits can be abandoned (a cancelled batch stops waiting for a slot).
export class Semaphore {
  private free: number;
  private readonly waiters: Array<{ resolve: (ok: boolean) => void; signal: AbortSignal; onAbort: () => void }> = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`semaphore size must be a positive integer, got ${size}`);
    this.free = size;
  }

  /** Resolves true with a slot held, or false (no slot) once `signal` aborts. */
  acquire(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (this.free > 0 && this.waiters.length === 0) {
      this.free--;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter = {
        resolve,
        signal,
        onAbort: () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          resolve(false);
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) {
      next.signal.removeEventListener('abort', next.onAbort);
      next.resolve(true);
    } else {
      this.free++;
    }
  }
}
