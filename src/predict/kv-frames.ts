// Wire format between a decoder and its prefiller: a stream of frames, each a u32 little-endian
// byte length followed by one msgpack map. The prefiller sends the layout first, then one
// frame per KV block, then `end` (or `error`), so blocks can be taken as they arrive.
import { decode, encode } from '@msgpack/msgpack';
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

export function encodeFrame(frame: KvFrame): Uint8Array {
  const body = encode(frame);
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

/** Incremental frame parser for a byte stream. */
export class FrameReader {
  private buf = new Uint8Array(0);

  push(chunk: Uint8Array): KvFrame[] {
    const merged = new Uint8Array(this.buf.length + chunk.length);
    merged.set(this.buf);
    merged.set(chunk, this.buf.length);
    this.buf = merged;
    const frames: KvFrame[] = [];
    let at = 0;
    while (this.buf.length - at >= 4) {
      const len = new DataView(this.buf.buffer, this.buf.byteOffset + at).getUint32(0, true);
      if (len > MAX_FRAME_BYTES) throw new Error(`KV frame of ${len} bytes exceeds the ${MAX_FRAME_BYTES}-byte limit`);
      if (this.buf.length - at - 4 < len) break;
      frames.push(decode(this.buf.subarray(at + 4, at + 4 + len)) as KvFrame);
      at += 4 + len;
    }
    this.buf = this.buf.slice(at);
    return frames;
  }

  get pendingBytes(): number {
    return this.buf.length;
  }
}

export function sameLayout(a: KvLayout, b: KvLayout): boolean {
  return a.modelFingerprint === b.modelFingerprint && a.blockTokens === b.blockTokens && a.nLayers === b.nLayers && a.kvDim === b.kvDim && a.dtype === b.dtype;
}

export function blockFromFrame(frame: { index: number; data: Uint8Array }): KvBlock {
  return { index: frame.index, data: frame.data };
}
