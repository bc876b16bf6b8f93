// Wire format between a decoder and its prefiller: a stream of frames, each a u32 little-endian
// byte length followed by one msgpack map. The prefiller sends the layout first, then one
// frame per KV block, then `end` (or `error`), so blocks can be taken as they arrive.
import { Decoder, Encoder } from '@msgpack/msgpack';
import type { KvBlock, KvLayout } from '../engine/types.js';

export type KvFrame =
  | { t: 'layout'; layout: KvLayout }
  | { t: 'block'; index: number; data: Uint8Array }
  | { t: 'end'; blocks: number; prefillMs: number }
  | { t: 'error'; message: string };

/** Request body of POST /v1/kv/prefill. */
export interface KvPrefillRequest {
  fingerprint: string;
  /** Prompt token ids, little-endian u32. */
  tokens: Uint8Array;
  /** First block the decoder lacks. */
  fromBlock: number;
}

/** Largest frame accepted (a block of a big model at f32 stays far below this). */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;

// One encoder and decoder for every frame: msgpack's encode()/decode() build a new one per call
// (and the encoder regrows its buffer from 2 KiB for each 16-256 KiB block).
const frameEncoder = new Encoder();
const frameDecoder = new Decoder();

export function encodeFrame(frame: KvFrame): Uint8Array {
  const body = frameEncoder.encodeSharedRef(frame); // a view of the shared buffer, copied below
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, body.length, true);
  out.set(body, 4);
  return out;
}

export function tokensToBytes(tokens: Uint32Array): Uint8Array {
  const copy = new Uint32Array(tokens); // own, aligned buffer; little-endian on every supported host
  return new Uint8Array(copy.buffer);
}

export function bytesToTokens(bytes: Uint8Array): Uint32Array {
  if (bytes.byteLength % 4 !== 0) throw new Error('token bytes are not a multiple of 4');
  const copy = new Uint8Array(bytes); // aligned copy
  return new Uint32Array(copy.buffer, 0, copy.byteLength / 4);
}

/** Incremental frame parser for a byte stream. Chunks are kept as they arrive and each frame is
 *  copied out at most once (not at all when it lies in one chunk), so a frame split over many
 *  chunks costs linear time. */
export class FrameReader {
  private chunks: Uint8Array[] = [];
  private buffered = 0;

  push(chunk: Uint8Array): KvFrame[] {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    const frames: KvFrame[] = [];
    while (this.buffered >= 4) {
      const len = new DataView(this.peek(4).buffer).getUint32(0, true);
      if (len > MAX_FRAME_BYTES) throw new Error(`KV frame of ${len} bytes exceeds the ${MAX_FRAME_BYTES}-byte limit`);
      if (this.buffered < 4 + len) break;
      frames.push(frameDecoder.decode(this.take(4 + len).subarray(4)) as KvFrame);
    }
    return frames;
  }

  get pendingBytes(): number {
    return this.buffered;
  }

  /** A copy of the first n buffered bytes, left in place. */
  private peek(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let o = 0;
    for (const c of this.chunks) {
      const k = Math.min(c.length, n - o);
      out.set(c.subarray(0, k), o);
      o += k;
      if (o === n) break;
    }
    return out;
  }

  /** Removes the first n buffered bytes and returns them as one array: a view of the chunk when
   *  they lie in one (frames are read-only after decoding), else a copy. */
  private take(n: number): Uint8Array {
    const first = this.chunks[0] as Uint8Array;
    if (first.length >= n) {
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
      this.buffered -= n;
      return first.subarray(0, n);
    }
    const out = new Uint8Array(n);
    let o = 0;
    while (o < n) {
      const c = this.chunks[0] as Uint8Array;
      const k = Math.min(c.length, n - o);
      out.set(c.subarray(0, k), o);
      o += k;
      if (k === c.length) this.chunks.shift();
      else this.chunks[0] = c.subarray(k);
    }
    this.buffered -= n;
    return out;
  }
}

export function sameLayout(a: KvLayout, b: KvLayout): boolean {
  return a.modelFingerprint === b.modelFingerprint && a.blockTokens === b.blockTokens && a.nLayers === b.nLayers && a.kvDim === b.kvDim && a.dtype === b.dtype;
}

export function blockFromFrame(frame: { index: number; data: Uint8Array }): KvBlock {
  return { index: frame.index, data: frame.data };
}
