// Embedding calls made in the same turn of the event loop go to the engine as one native embed()
// job: their inputs share forward passes (a request of 16 inputs and another of 4 are one job of
// 20, not two). Each caller gets its own rows back, L2-normalised.
import { native, NativePooling, type ModelHandle } from '../native/binding.js';
import { fromNativeError } from './engine-errors.js';
import type { EmbedResult, Pooling } from './types.js';

const NATIVE_POOLING: Record<Pooling, NativePooling> = { mean: NativePooling.mean, cls: NativePooling.cls, last: NativePooling.last };

export interface EmbedOptions {
  /** Default: the model's own pooling type. */
  pooling?: Pooling;
  /** L2-normalise each vector (default true). */
  normalize?: boolean;
}

interface Pending {
  inputs: readonly Uint32Array[];
  normalize: boolean;
  resolve(r: EmbedResult): void;
  reject(e: unknown): void;
}

/** Scales each row of `rows` ([n][dims]) to unit length in place (a zero row stays zero). */
export function l2NormaliseRows(rows: Float32Array, dims: number): void {
  for (let off = 0; off < rows.length; off += dims) {
    let ss = 0;
    for (let j = 0; j < dims; j++) ss += rows[off + j]! * rows[off + j]!;
    if (ss === 0) continue;
    const inv = 1 / Math.sqrt(ss);
    for (let j = 0; j < dims; j++) rows[off + j]! *= inv;
  }
}

export class EmbedBatcher {
  /** Calls waiting for the next flush, by pooling (one native job per pooling kind). */
  private readonly pending = new Map<Pooling, Pending[]>();

  constructor(
    private readonly handle: ModelHandle,
    private readonly pooling: Pooling,
    private readonly dims: number,
  ) {}

  embed(inputs: readonly Uint32Array[], opts: EmbedOptions = {}): Promise<EmbedResult> {
    const pooling = opts.pooling ?? this.pooling;
    if (inputs.length === 0) return Promise.resolve({ pooling, dims: this.dims, vectors: new Float32Array(0) });
    return new Promise<EmbedResult>((resolve, reject) => {
      let list = this.pending.get(pooling);
      if (!list) {
        list = [];
        this.pending.set(pooling, list);
        setImmediate(() => this.flush(pooling));
      }
      list.push({ inputs, normalize: opts.normalize ?? true, resolve, reject });
    });
  }

  private flush(pooling: Pooling): void {
    const group = this.pending.get(pooling) ?? [];
    this.pending.delete(pooling);
    let total = 0;
    let count = 0;
    for (const p of group) {
      count += p.inputs.length;
      for (const t of p.inputs) total += t.length;
    }
    const tokens = new Uint32Array(total);
    const lengths = new Int32Array(count);
    let at = 0;
    let i = 0;
    for (const p of group) {
      for (const t of p.inputs) {
        tokens.set(t, at);
        at += t.length;
        lengths[i++] = t.length;
      }
    }
    native()
      .embed(this.handle, tokens, lengths, NATIVE_POOLING[pooling])
      .then(
        (rows) => {
          let row = 0;
          for (const p of group) {
            const n = p.inputs.length;
            const vectors = rows.slice(row * this.dims, (row + n) * this.dims);
            if (p.normalize) l2NormaliseRows(vectors, this.dims);
            p.resolve({ pooling, dims: this.dims, vectors });
            row += n;
          }
        },
        (e: unknown) => {
          const err = fromNativeError(e);
          for (const p of group) p.reject(err);
        },
      );
  }
}
