// The gathering submit hold's decision (src/engine/gather-hold.ts), driven by a fake loop and
// clock: which loop turn, leave or timer ends it, never how fast anything runs. The intake is the
// real leaf (src/intake.ts); every test leaves what it entered.
import { afterEach, describe, expect, it } from 'vitest';
import { gatherSubmits, type GatherDeps, type GatherEnd } from '../../src/engine/gather-hold.js';
import { enterIntake, intakeCount, leaveIntake, newestIntakeAt, onNextIntakeLeave } from '../../src/intake.js';

const MAX = 10;

/** A loop of turns (setImmediate callbacks run in the turn after they were queued), timers and a
 *  clock that moves only when told. */
class FakeLoop {
  t = 0;
  private queued: Array<() => void> = [];
  private timers: Array<{ at: number; fn: () => void; live: boolean }> = [];
  submits = 0;
  readonly ends: GatherEnd[] = [];

  readonly deps: GatherDeps = {
    now: () => this.t,
    nextTurn: (fn) => void this.queued.push(fn),
    after: (ms, fn) => {
      const timer = { at: this.t + ms, fn, live: true };
      this.timers.push(timer);
      return () => {
        timer.live = false;
      };
    },
    submits: () => this.submits,
    newestIntakeAt,
    onNextIntakeLeave,
  };

  /** Opens a hold as a first submit does (that submit counted). */
  open(): void {
    this.submits++;
    gatherSubmits(this.deps, MAX, (why) => this.ends.push(why));
  }

  /** One loop turn: what was queued before it runs. */
  turn(): void {
    const now = this.queued;
    this.queued = [];
    for (const fn of now) fn();
  }

  turns(n: number): void {
    for (let i = 0; i < n; i++) this.turn();
  }

  get pendingTurns(): number {
    return this.queued.length;
  }

  /** Moves the clock, firing the timers due. */
  advance(ms: number): void {
    this.t += ms;
    for (const timer of this.timers) {
      if (timer.live && timer.at <= this.t) {
        timer.live = false;
        timer.fn();
      }
    }
  }

  liveTimers(): number {
    return this.timers.filter((x) => x.live).length;
  }
}

/** A request reaching the engine: it leaves intake and submits. */
function submit(loop: FakeLoop, key: object): void {
  loop.submits++;
  leaveIntake(key);
}

const entered: object[] = [];
function request(at = 0): object {
  const key = {};
  enterIntake(key, at);
  entered.push(key);
  return key;
}

afterEach(() => {
  for (const k of entered.splice(0)) leaveIntake(k);
  expect(intakeCount()).toBe(0);
});

describe('gathering submit hold', () => {
  it('a lone request: released after one turn without submits, no timer, nothing waited for', () => {
    const loop = new FakeLoop();
    const a = request();
    submit(loop, a);
    loop.open();
    loop.turn(); // the first check always waits a turn
    expect(loop.ends).toEqual([]);
    loop.turn();
    expect(loop.ends).toEqual(['quiet']);
    expect(loop.liveTimers()).toBe(0);
    expect(loop.pendingTurns).toBe(0);
  });

  it('keeps holding through turns without submits while requests are in intake, and releases once the last one submitted', () => {
    const loop = new FakeLoop();
    const [a, b, c] = [request(), request(), request()];
    submit(loop, a);
    loop.open();
    loop.turns(2);
    // B and C are on their way (bodies, endOfIoBatch): the hold waits for them without spinning.
    expect(loop.ends).toEqual([]);
    expect(loop.pendingTurns).toBe(0);
    expect(loop.liveTimers()).toBe(1);
    loop.advance(3);
    loop.turns(5); // turns with nothing for the hold: no check runs
    expect(loop.ends).toEqual([]);
    submit(loop, b); // B reaches the engine: checked in the next turn
    expect(loop.pendingTurns).toBe(1);
    loop.turns(2);
    expect(loop.ends).toEqual([]); // C still in intake
    submit(loop, c);
    loop.turn(); // C's turn brought a submit: one more turn
    expect(loop.ends).toEqual([]);
    loop.turn();
    expect(loop.ends).toEqual(['quiet']);
    expect(loop.liveTimers()).toBe(0); // the bound's timer is cancelled
    expect(intakeCount()).toBe(0);
  });

  it('a request that fails before it submits ends the wait as a submit does', () => {
    const loop = new FakeLoop();
    const [a, b] = [request(), request()];
    submit(loop, a);
    loop.open();
    loop.turns(2);
    expect(loop.ends).toEqual([]);
    leaveIntake(b); // B failed (validation, cancelled): the server leaves it at the request's end
    loop.turn();
    expect(loop.ends).toEqual(['quiet']);
  });

  it('releases at the bound when a request in intake never submits (a stuck body)', () => {
    const loop = new FakeLoop();
    const a = request();
    request(); // never submits
    submit(loop, a);
    loop.open();
    loop.advance(2);
    loop.turns(2);
    expect(loop.ends).toEqual([]);
    loop.advance(MAX - 2 - 0.5);
    expect(loop.ends).toEqual([]);
    loop.advance(0.5); // MAX after the hold opened
    expect(loop.ends).toEqual(['bound']);
    loop.turns(3);
    expect(loop.ends).toEqual(['bound']); // released exactly once
  });

  it('a request in intake since before the bound does not hold anybody', () => {
    const loop = new FakeLoop();
    loop.t = 100;
    request(100 - MAX - 1); // stuck, older than the bound when the hold opens
    const a = request(100);
    submit(loop, a);
    loop.open();
    loop.turns(2);
    expect(loop.ends).toEqual(['quiet']);
  });

  it('submits in every turn keep it open up to the bound, with or without intake', () => {
    const loop = new FakeLoop();
    loop.open();
    for (let i = 0; i < 9; i++) {
      loop.advance(1);
      loop.submits++; // in-process generate() calls, no HTTP intake
      loop.turn();
      expect(loop.ends).toEqual([]);
    }
    loop.advance(1);
    loop.submits++;
    loop.turn();
    expect(loop.ends).toEqual(['bound']);
  });

  it('a leave after the release wakes nothing', () => {
    const loop = new FakeLoop();
    const [a, b] = [request(), request()];
    submit(loop, a);
    loop.open();
    loop.turns(2);
    loop.advance(MAX);
    expect(loop.ends).toEqual(['bound']);
    submit(loop, b);
    expect(loop.pendingTurns).toBe(0);
    loop.turns(2);
    expect(loop.ends).toEqual(['bound']);
  });
});

describe('intake (src/intake.ts)', () => {
  it('counts requests in, newest first, and leaving is idempotent and order-free', () => {
    const [a, b, c] = [request(1), request(2), request(3)];
    expect(intakeCount()).toBe(3);
    expect(newestIntakeAt()).toBe(3);
    leaveIntake(c);
    expect(newestIntakeAt()).toBe(2);
    leaveIntake(a);
    leaveIntake(a);
    expect(intakeCount()).toBe(1);
    expect(newestIntakeAt()).toBe(2);
    enterIntake(b, 9); // already in: unchanged
    expect(newestIntakeAt()).toBe(2);
    leaveIntake(b);
    leaveIntake(undefined);
    expect(intakeCount()).toBe(0);
    expect(newestIntakeAt()).toBe(-Infinity);
  });

  it('a leave wakes each waiter once; a cancelled waiter not at all', () => {
    const [a, b] = [request(), request()];
    const woken: string[] = [];
    onNextIntakeLeave(() => woken.push('x'));
    const cancel = onNextIntakeLeave(() => woken.push('y'));
    cancel();
    leaveIntake({}); // not in intake: wakes nobody
    expect(woken).toEqual([]);
    leaveIntake(a);
    leaveIntake(b);
    expect(woken).toEqual(['x']);
  });
});
