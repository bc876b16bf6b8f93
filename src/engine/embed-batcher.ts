// Embedding calls made in the same turn of the event loop go to the engine as one native embed()
// job: their inputs share forward passes (a request of 16 inputs and another of 4 are one job of
// 20, not two). Each caller gets its own rows back, L2-normalised.
import { native, NativePooling, type ModelHandle } from '../native/binding.js';
import { fromNativeError } from './engine-errors.js';
import type { EmbedResult, Pooling } from './types.js';

const NATIVE_POOLING: Record<Pooling, NativePooling> = { mean: NativePooling.mean, cls: NativePooling.cls, last: NativePooling.last };

interface Pending {
  inputs: readonly Uint32Array[];
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
  private pending: Pending[] = [];

  constructor(
    private readonly handle: ModelHandle,
    private readonly pooling: Pooling,
    private readonly dims: number,
  ) {}

  embed(inputs: readonly Uint32Array[]): Promise<EmbedResult> {
    if (inputs.length === 0) return Promise.resolve({ pooling: this.pooling, dims: this.dims, vectors: new Float32Array(0) });
    return new Promise<EmbedResult>((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ inputs, resolve, reject });
    });
  }

  private flush(): void {
    const group = this.pending;
    this.pending = [];
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
      .embed(this.handle, tokens, lengths, NATIVE_POOLING[this.pooling])
      .then(
        (rows) => {
          l2NormaliseRows(rows, this.dims);
          let row = 0;
          for (const p of group) {
            const n = p.inputs.length;
            p.resolve({ pooling: this.pooling, dims: this.dims, vectors: rows.slice(row * this.dims, (row + n) * this.dims) });
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
