// One native session per loaded model per JS environment: the engine calls back once per step
// with the events of every sequence this environment submitted; this routes them by sequence id.
import { native, type ModelHandle, type SessionHandle, type StepEvents } from '../native/binding.js';

/** Handles the events of one sequence; i indexes into the step's arrays. */
export interface SequenceHandler {
  onEvent(ev: StepEvents, i: number, topStart: number): void;
  /** The session closed (model unloaded) before the sequence finished. */
  onClose(): void;
}

export class StepDispatcher {
  readonly session: SessionHandle;
  private readonly handlers = new Map<number, SequenceHandler>();

  constructor(model: ModelHandle) {
    this.session = native().openSession(model, (seq, token, logprob, finish, error, promptTokens, cachedTokens, nTop, topIds, topLogprobs, draft) => {
      const ev: StepEvents = { seq, token, logprob, finish, error, promptTokens, cachedTokens, nTop, topIds, topLogprobs };
      if (draft) ev.draft = draft;
      this.dispatch(ev);
    });
  }

  register(seq: number, handler: SequenceHandler): void {
    this.handlers.set(seq, handler);
  }

  unregister(seq: number): void {
    this.handlers.delete(seq);
  }

  get active(): number {
    return this.handlers.size;
  }

  cancelAll(): void {
    for (const seq of this.handlers.keys()) native().cancel(this.session, seq);
  }

  close(): void {
    native().closeSession(this.session);
    const pending = [...this.handlers.values()];
    this.handlers.clear();
    for (const h of pending) h.onClose();
  }

  private dispatch(ev: StepEvents): void {
    let top = 0;
    for (let i = 0; i < ev.seq.length; i++) {
      const h = this.handlers.get(ev.seq[i]!);
      if (h) h.onEvent(ev, i, top);
      top += ev.nTop[i]!;
    }
  }
}
