// Readiness (GET /ready) and the degraded flag of GET /health. Ready means: every configured model
// loaded, each engine's scheduler stepping (work pending and no step for stallDeadlineMs: stuck),
// each queue below its limit, and no shutdown begun. The step counter is sampled on a timer as well
// as on each check, so that an engine idle for a while and then busy is not mistaken for stuck.
import type { LoadedModel } from '../engine/types.js';
import { MeteredModel } from './engine-metrics.js';

export const DEFAULT_STALL_DEADLINE_MS = 30_000;

export interface ModelReadiness {
  model: string;
  ready: boolean;
  running: number;
  waiting: number;
  /** Why not ready ('' when ready). */
  reason: string;
}

export interface ReadinessReport {
  ready: boolean;
  /** 'loading' until the models are in, 'shutting_down' once shutdown began, else 'ready' / 'not_ready'. */
  state: 'loading' | 'ready' | 'not_ready' | 'shutting_down';
  models: ModelReadiness[];
}

export interface ModelLoadFailure {
  path: string;
  error: string;
}

interface Progress {
  steps: number;
  /** When the step counter last moved, or the engine was last seen with nothing to do. */
  at: number;
}

export class Readiness {
  /** Set once every model that loads has loaded (failures are in loadFailures). */
  loaded = false;
  shuttingDown = false;
  readonly loadFailures: ModelLoadFailure[] = [];
  private readonly progress = new Map<string, Progress>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly models: () => Iterable<LoadedModel>,
    private readonly opts: { stallDeadlineMs: number; maxQueue: number; now?: () => number },
  ) {}

  /** Samples the step counters every quarter deadline (at most every second) until stop(). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.sample(), Math.min(1000, Math.max(10, this.opts.stallDeadlineMs / 4)));
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private now(): number {
    return this.opts.now?.() ?? performance.now();
  }

  /** Work the engine has: the requests the metering wrapper saw start and not finish, or what the
   *  engine reports running and queued for a model without one. */
  private static pendingOf(m: LoadedModel, running: number, waiting: number): number {
    return m instanceof MeteredModel ? m.pending : running + waiting;
  }

  /** Waiting requests that count against the queue limit: batch-priority work waits behind
   *  interactive work and bounds itself, so it does not make a replica unready. The engine's queue
   *  holds both; the interactive generations in flight (running or waiting) bound the share that
   *  is interactive. */
  private static waitingInteractive(m: LoadedModel, waiting: number): number {
    return m instanceof MeteredModel ? Math.min(waiting, m.interactivePending) : waiting;
  }

  private sampleOne(m: LoadedModel): { running: number; waiting: number; stalledMs: number } {
    const s = m.stats();
    const now = this.now();
    const pending = Readiness.pendingOf(m, s.runningSequences, s.queuedSequences);
    const p = this.progress.get(m.info.id);
    let stalledMs = 0;
    if (s.steps === undefined) {
      // an engine that does not count steps cannot be judged
    } else if (!p || p.steps !== s.steps || pending === 0) {
      this.progress.set(m.info.id, { steps: s.steps, at: now });
    } else {
      stalledMs = now - p.at;
    }
    return { running: s.runningSequences, waiting: s.queuedSequences, stalledMs };
  }

  sample(): void {
    for (const m of this.models()) {
      try {
        this.sampleOne(m);
      } catch {
        // an unloaded model is reported by check()
      }
    }
  }

  check(): ReadinessReport {
    const models: ModelReadiness[] = [];
    const limit = Math.max(1, this.opts.maxQueue);
    for (const m of this.models()) {
      let r: ModelReadiness;
      try {
        const { running, waiting, stalledMs } = this.sampleOne(m);
        let reason = '';
        if (stalledMs > this.opts.stallDeadlineMs) reason = `scheduler has not stepped for ${Math.round(stalledMs)} ms with requests pending`;
        else if (Readiness.waitingInteractive(m, waiting) >= limit) reason = `queue full (${waiting} waiting, limit ${limit})`;
        r = { model: m.info.id, ready: reason === '', running, waiting, reason };
      } catch (e) {
        r = { model: m.info.id, ready: false, running: 0, waiting: 0, reason: `stats unavailable: ${(e as Error).message}` };
      }
      models.push(r);
    }
    if (this.shuttingDown) return { ready: false, state: 'shutting_down', models };
    if (!this.loaded) return { ready: false, state: 'loading', models };
    const ready = models.length > 0 && models.every((m) => m.ready);
    return { ready, state: ready ? 'ready' : 'not_ready', models };
  }

  /** Why /health says degraded: models that failed to load, a GPU present but a model on the CPU. */
  problems(): string[] {
    const out = this.loadFailures.map((f) => `model ${f.path} failed to load: ${f.error}`);
    for (const m of this.models()) {
      try {
        const s = m.stats();
        if (s.gpuAvailable && s.gpuInUse === false) out.push(`model ${m.info.id} runs on the CPU although a GPU is available`);
      } catch {
        out.push(`model ${m.info.id}: stats unavailable`);
      }
    }
    return out;
  }
}
