// Minimal GGUF v3 header reader in TS (metadata + tensor infos, no tensor data): used by the
// tokenizer tests, `svc model` and tools. The engine's own loader is native (mmap).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC, GgufValueType, isSupportedType, tensorBytes } from './types.js';

export interface GgufTensorInfo {
  name: string;
  dims: number[];
  type: number;
  /** Absolute byte offset of the tensor data in the file. */
  offset: number;
}

export interface GgufHeader {
  version: number;
  metadata: Record<string, unknown>;
  tensors: GgufTensorInfo[];
  alignment: number;
  dataOffset: number;
  fileSize: number;
}

const LIMIT_STRING = 1 << 26;
const LIMIT_ARRAY = 1 << 28;

class Cursor {
  private buf = Buffer.alloc(0);
  private base = 0; // file offset of buf[0]
  pos = 0; // absolute file offset
  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {}
  private need(n: number): void {
    if (this.pos + n > this.size) throw new Error(`gguf: truncated file (need ${n} bytes at offset ${this.pos}, size ${this.size})`);
    if (this.pos >= this.base && this.pos + n <= this.base + this.buf.length) return;
    const len = Math.min(this.size - this.pos, Math.max(n, 4 << 20));
    const b = Buffer.allocUnsafe(len);
    let got = 0;
    while (got < len) {
      const r = readSync(this.fd, b, got, len - got, this.pos + got);
      if (r <= 0) throw new Error('gguf: short read');
      got += r;
    }
    this.buf = b;
    this.base = this.pos;
  }
  private at(n: number): number {
    this.need(n);
    const o = this.pos - this.base;
    this.pos += n;
    return o;
  }
  u8(): number { const o = this.at(1); return this.buf.readUInt8(o); }
  i8(): number { const o = this.at(1); return this.buf.readInt8(o); }
  u16(): number { const o = this.at(2); return this.buf.readUInt16LE(o); }
  i16(): number { const o = this.at(2); return this.buf.readInt16LE(o); }
  u32(): number { const o = this.at(4); return this.buf.readUInt32LE(o); }
  i32(): number { const o = this.at(4); return this.buf.readInt32LE(o); }
  f32(): number { const o = this.at(4); return this.buf.readFloatLE(o); }
  f64(): number { const o = this.at(8); return this.buf.readDoubleLE(o); }
  u64(): bigint { const o = this.at(8); return this.buf.readBigUInt64LE(o); }
  i64(): bigint { const o = this.at(8); return this.buf.readBigInt64LE(o); }
  count(what: string, limit: number): number {
    const v = this.u64();
    if (v > BigInt(limit)) throw new Error(`gguf: ${what} length ${v} exceeds limit ${limit}`);
    return Number(v);
  }
  str(): string {
    const n = this.count('string', LIMIT_STRING);
    const o = this.at(n);
    return this.buf.toString('utf8', o, o + n); // at() may have replaced buf: read it after
  }
}

/** Reads a value; u64/i64 become numbers when they are safe integers, else bigints. */
function readValue(c: Cursor, type: number, depth = 0): unknown {
  switch (type) {
    case GgufValueType.UINT8: return c.u8();
    case GgufValueType.INT8: return c.i8();
    case GgufValueType.UINT16: return c.u16();
    case GgufValueType.INT16: return c.i16();
    case GgufValueType.UINT32: return c.u32();
    case GgufValueType.INT32: return c.i32();
    case GgufValueType.FLOAT32: return c.f32();
    case GgufValueType.BOOL: {
      const b = c.u8();
      if (b > 1) throw new Error(`gguf: bad bool ${b}`);
      return b === 1;
    }
    case GgufValueType.STRING: return c.str();
    case GgufValueType.UINT64: return safe(c.u64());
    case GgufValueType.INT64: return safe(c.i64());
    case GgufValueType.FLOAT64: return c.f64();
    case GgufValueType.ARRAY: {
      if (depth > 4) throw new Error('gguf: arrays nested too deep');
      const et = c.u32();
      const n = c.count('array', LIMIT_ARRAY);
      if (et === GgufValueType.INT32) {
        const out = new Int32Array(n);
        for (let i = 0; i < n; i++) out[i] = c.i32();
        return out;
      }
      if (et === GgufValueType.FLOAT32) {
        const out = new Float32Array(n);
        for (let i = 0; i < n; i++) out[i] = c.f32();
        return out;
      }
      const out: unknown[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = readValue(c, et, depth + 1);
      return out;
    }
    default:
      throw new Error(`gguf: unknown metadata value type ${type}`);
  }
}

function safe(v: bigint): number | bigint {
  return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v;
}

/** Reads the header of a GGUF file. INT32 arrays come back as Int32Array, FLOAT32 arrays as Float32Array. */
export function readGgufHeader(path: string): GgufHeader {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const c = new Cursor(fd, size);
    const magic = c.u32();
    if (magic !== GGUF_MAGIC) throw new Error(`gguf: ${path} is not a GGUF file (magic 0x${magic.toString(16)})`);
    const version = c.u32();
    if (version !== 3 && version !== 2) throw new Error(`gguf: unsupported version ${version}`);
    const nTensors = c.count('tensor count', 1 << 20);
    const nKv = c.count('metadata count', 1 << 20);
    const metadata: Record<string, unknown> = {};
    for (let i = 0; i < nKv; i++) {
      const key = c.str();
      metadata[key] = readValue(c, c.u32());
    }
    const alignment = typeof metadata['general.alignment'] === 'number' ? (metadata['general.alignment'] as number) : GGUF_DEFAULT_ALIGNMENT;
    const tensors: GgufTensorInfo[] = [];
    for (let i = 0; i < nTensors; i++) {
      const name = c.str();
      const nd = c.u32();
      if (nd < 1 || nd > 4) throw new Error(`gguf: tensor ${name} has ${nd} dims`);
      const dims: number[] = [];
      for (let d = 0; d < nd; d++) dims.push(Number(c.u64()));
      const type = c.u32();
      tensors.push({ name, dims, type, offset: Number(c.u64()) });
    }
    const dataOffset = Math.ceil(c.pos / alignment) * alignment;
    for (const t of tensors) {
      t.offset += dataOffset;
      // The data must be there too (as the engine checks on load): a file cut short after its
      // header is not a model. Types this reader has no layout for are left to the engine.
      if (isSupportedType(t.type) && t.offset + tensorBytes(t.type, t.dims) > size) {
        throw new Error(`gguf: tensor '${t.name}' extends past the end of the file (${size} bytes): truncated file?`);
      }
    }
    return { version, metadata, tensors, alignment, dataOffset, fileSize: size };
  } finally {
    closeSync(fd);
  }
}
