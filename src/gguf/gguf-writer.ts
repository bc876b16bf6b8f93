// Streaming GGUF v3 writer: metadata and tensor infos first, then each tensor's bytes produced
// on demand and written through a fixed buffer, so a multi-GB model never sits in memory.
// The file is written to a temporary name and renamed at the end (readers never see a partial file).
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive } from '../process-info.js';
import { GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC, GGUF_VERSION, GgmlType, GgufValueType, tensorBytes } from './types.js';

export type GgufScalarType = Exclude<GgufValueType, GgufValueType.ARRAY>;

export interface GgufArray {
  elemType: GgufValueType;
  /** Numbers/bigints/booleans/strings for scalar element types, GgufArray for nested arrays. */
  items: ReadonlyArray<unknown> | ArrayLike<number>;
}

export interface GgufMetadataEntry {
  key: string;
  type: GgufValueType;
  value: unknown;
}

export interface GgufTensorSpec {
  name: string;
  /** ggml order: dims[0] (ne0) is the row length. */
  dims: number[];
  type: GgmlType;
  /** Calls emit with the tensor's bytes in order, exactly tensorBytes(type, dims) in total. */
  produce(emit: (chunk: Uint8Array) => void): void | Promise<void>;
}

const enc = new TextEncoder();

class ByteSink {
  private buf: Buffer;
  private pos = 0;
  written = 0;
  constructor(
    private readonly fd: number,
    size = 8 << 20,
  ) {
    this.buf = Buffer.allocUnsafe(size);
  }
  private ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.flush();
  }
  bytes(b: Uint8Array): void {
    if (b.length >= this.buf.length) {
      this.flush();
      let off = 0;
      while (off < b.length) off += writeSync(this.fd, b, off, b.length - off);
      this.written += b.length;
      return;
    }
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    this.written += b.length;
  }
  u8(v: number): void {
    this.ensure(1);
    this.buf.writeUInt8(v & 0xff, this.pos);
    this.pos += 1;
    this.written += 1;
  }
  num(type: GgufScalarType, v: unknown): void {
    this.ensure(8);
    const b = this.buf;
    const p = this.pos;
    let n: number;
    switch (type) {
      case GgufValueType.UINT8: n = b.writeUInt8(checkInt(v, 0, 0xff), p); break;
      case GgufValueType.INT8: n = b.writeInt8(checkInt(v, -0x80, 0x7f), p); break;
      case GgufValueType.UINT16: n = b.writeUInt16LE(checkInt(v, 0, 0xffff), p); break;
      case GgufValueType.INT16: n = b.writeInt16LE(checkInt(v, -0x8000, 0x7fff), p); break;
      case GgufValueType.UINT32: n = b.writeUInt32LE(checkInt(v, 0, 0xffffffff), p); break;
      case GgufValueType.INT32: n = b.writeInt32LE(checkInt(v, -0x80000000, 0x7fffffff), p); break;
      case GgufValueType.FLOAT32: n = b.writeFloatLE(Number(v), p); break;
      case GgufValueType.BOOL: n = b.writeUInt8(v ? 1 : 0, p); break;
      case GgufValueType.UINT64: n = b.writeBigUInt64LE(BigInt(v as number | bigint), p); break;
      case GgufValueType.INT64: n = b.writeBigInt64LE(BigInt(v as number | bigint), p); break;
      case GgufValueType.FLOAT64: n = b.writeDoubleLE(Number(v), p); break;
      case GgufValueType.STRING:
        this.str(String(v));
        return;
      default:
        throw new Error(`gguf: unknown value type ${String(type)}`);
    }
    this.written += n - p;
    this.pos = n;
  }
  str(s: string): void {
    const b = enc.encode(s);
    this.num(GgufValueType.UINT64, BigInt(b.length));
    this.bytes(b);
  }
  value(type: GgufValueType, v: unknown): void {
    if (type !== GgufValueType.ARRAY) return this.num(type, v);
    const arr = v as GgufArray;
    if (!arr || typeof arr !== 'object' || !('items' in arr)) throw new Error('gguf: ARRAY value must be {elemType, items}');
    this.num(GgufValueType.UINT32, arr.elemType);
    this.num(GgufValueType.UINT64, BigInt(arr.items.length));
    for (let i = 0; i < arr.items.length; i++) this.value(arr.elemType, (arr.items as ArrayLike<unknown>)[i]);
  }
  pad(alignment: number): void {
    const r = this.written % alignment;
    if (r !== 0) this.bytes(new Uint8Array(alignment - r));
  }
  flush(): void {
    let off = 0;
    while (off < this.pos) off += writeSync(this.fd, this.buf, off, this.pos - off);
    this.pos = 0;
  }
}

function checkInt(v: unknown, lo: number, hi: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < lo || n > hi) throw new Error(`gguf: ${String(v)} is out of range [${lo}, ${hi}]`);
  return n;
}

export class GgufWriter {
  readonly metadata: GgufMetadataEntry[] = [];
  readonly tensors: GgufTensorSpec[] = [];

  constructor(readonly alignment = GGUF_DEFAULT_ALIGNMENT) {
    if (alignment <= 0 || (alignment & (alignment - 1)) !== 0 || alignment % 8 !== 0) throw new Error(`gguf: bad alignment ${alignment}`);
  }

  add(key: string, type: GgufValueType, value: unknown): this {
    if (this.metadata.some((m) => m.key === key)) throw new Error(`gguf: duplicate key ${key}`);
    this.metadata.push({ key, type, value });
    return this;
  }
  u32(key: string, v: number): this { return this.add(key, GgufValueType.UINT32, v); }
  i32(key: string, v: number): this { return this.add(key, GgufValueType.INT32, v); }
  f32(key: string, v: number): this { return this.add(key, GgufValueType.FLOAT32, v); }
  bool(key: string, v: boolean): this { return this.add(key, GgufValueType.BOOL, v); }
  string(key: string, v: string): this { return this.add(key, GgufValueType.STRING, v); }
  array(key: string, elemType: GgufValueType, items: GgufArray['items']): this {
    return this.add(key, GgufValueType.ARRAY, { elemType, items });
  }

  addTensor(t: GgufTensorSpec): this {
    if (t.name.length > 64) throw new Error(`gguf: tensor name too long: ${t.name}`);
    if (t.dims.length < 1 || t.dims.length > 4) throw new Error(`gguf: ${t.name} has ${t.dims.length} dims`);
    if (this.tensors.some((x) => x.name === t.name)) throw new Error(`gguf: duplicate tensor ${t.name}`);
    tensorBytes(t.type, t.dims); // validates block divisibility
    this.tensors.push(t);
    return this;
  }

  /** Writes the file; returns its size in bytes. */
  async write(path: string): Promise<number> {
    removeStaleTemps(path);
    const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
    const fd = openSync(tmp, 'w');
    try {
      const sink = new ByteSink(fd);
      sink.num(GgufValueType.UINT32, GGUF_MAGIC);
      sink.num(GgufValueType.UINT32, GGUF_VERSION);
      sink.num(GgufValueType.UINT64, BigInt(this.tensors.length));
      const hasAlign = this.metadata.some((m) => m.key === 'general.alignment');
      sink.num(GgufValueType.UINT64, BigInt(this.metadata.length + (hasAlign ? 0 : 1)));
      if (!hasAlign) {
        sink.str('general.alignment');
        sink.num(GgufValueType.UINT32, GgufValueType.UINT32);
        sink.num(GgufValueType.UINT32, this.alignment);
      }
      for (const m of this.metadata) {
        sink.str(m.key);
        sink.num(GgufValueType.UINT32, m.type);
        sink.value(m.type, m.value);
      }
      let offset = 0;
      const sizes: number[] = [];
      for (const t of this.tensors) {
        sink.str(t.name);
        sink.num(GgufValueType.UINT32, t.dims.length);
        for (const d of t.dims) sink.num(GgufValueType.UINT64, BigInt(d));
        sink.num(GgufValueType.UINT32, t.type);
        sink.num(GgufValueType.UINT64, BigInt(offset));
        const n = tensorBytes(t.type, t.dims);
        sizes.push(n);
        offset += Math.ceil(n / this.alignment) * this.alignment;
      }
      sink.pad(this.alignment);
      for (let i = 0; i < this.tensors.length; i++) {
        const t = this.tensors[i]!;
        const start = sink.written;
        await t.produce((chunk) => sink.bytes(chunk));
        const got = sink.written - start;
        if (got !== sizes[i]) throw new Error(`gguf: tensor ${t.name} produced ${got} bytes, expected ${sizes[i]}`);
        sink.pad(this.alignment);
        // Let the event loop breathe between tensors (ensureBuiltinModel runs inside the server).
        await new Promise((r) => setImmediate(r));
      }
      sink.flush();
      fsyncSync(fd);
      closeSync(fd);
      renameSync(tmp, path);
      return sink.written;
    } catch (e) {
      try { closeSync(fd); } catch { /* already closed */ }
      rmSync(tmp, { force: true });
      throw e;
    }
  }
}

/** Temporary files of earlier writes to `path` whose writer is gone (interrupted, e.g. by Ctrl-C
 *  during the first start's model generation): they would otherwise pile up beside it. */
function removeStaleTemps(path: string): void {
  const prefix = `${basename(path)}.tmp-`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return; // no folder yet
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number.parseInt(name.slice(prefix.length), 10);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid)) rmSync(join(dirname(path), name), { force: true });
  }
}
