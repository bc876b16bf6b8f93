import { describe, expect, it } from 'vitest';
import { boundaryOf, MultipartError, MultipartParser, type MultipartEvent } from '../../src/http/multipart.js';

function body(boundary: string, parts: Array<{ headers: string; content: Buffer }>): Buffer {
  const pieces: Buffer[] = [Buffer.from('preamble ignored\r\n')];
  for (const p of parts) pieces.push(Buffer.from(`--${boundary}\r\n${p.headers}\r\n\r\n`), p.content, Buffer.from('\r\n'));
  pieces.push(Buffer.from(`--${boundary}--\r\nepilogue`));
  return Buffer.concat(pieces);
}

/** Feeds `buf` split at the given sizes and reassembles each part. */
function parse(boundary: string, buf: Buffer, sizes: number[]) {
  const p = new MultipartParser(boundary);
  const parts: Array<{ name: string; filename: string | null; data: Buffer }> = [];
  let cur: { name: string; filename: string | null; chunks: Buffer[] } | null = null;
  const handle = (ev: MultipartEvent): void => {
    if (ev.type === 'part') cur = { name: ev.headers.name, filename: ev.headers.filename, chunks: [] };
    else if (ev.type === 'data') cur!.chunks.push(Buffer.from(ev.data));
    else if (ev.type === 'part-end') {
      parts.push({ name: cur!.name, filename: cur!.filename, data: Buffer.concat(cur!.chunks) });
      cur = null;
    }
  };
  let off = 0;
  let i = 0;
  while (off < buf.length) {
    const n = sizes[i++ % sizes.length]!;
    for (const ev of p.write(buf.subarray(off, off + n))) handle(ev);
    off += n;
  }
  p.end();
  return parts;
}

describe('multipart parser', () => {
  const boundary = '----formdata-undici-0123456789';
  // content that contains CRLFs, dashes and a near-miss of the delimiter
  const file = Buffer.concat([Buffer.from('{"a":1}\r\n--'), Buffer.from(`\r\n--${boundary.slice(0, -1)}X`), Buffer.alloc(70_000, 0x61), Buffer.from('ünïcode\n')]);
  const buf = body(boundary, [
    { headers: 'Content-Disposition: form-data; name="file"; filename="in put.jsonl"\r\nContent-Type: application/jsonl', content: file },
    { headers: 'Content-Disposition: form-data; name="purpose"', content: Buffer.from('batch') },
  ]);

  it.each([[1], [7], [64], [4096], [1_000_000], [3, 1, 80, 13]])('reassembles parts with chunk sizes %j', (...sizes) => {
    const parts = parse(boundary, buf, sizes);
    expect(parts.map((p) => p.name)).toEqual(['file', 'purpose']);
    expect(parts[0]!.filename).toBe('in put.jsonl');
    expect(parts[0]!.data.equals(file)).toBe(true);
    expect(parts[1]!.data.toString()).toBe('batch');
  });

  it.each([[1], [64], [70_001], [3, 1, 80, 13]])('gives each data piece its offset in the body (chunk sizes %j)', (...sizes) => {
    const p = new MultipartParser(boundary);
    let off = 0;
    let i = 0;
    let pieces = 0;
    while (off < buf.length) {
      const n = sizes[i++ % sizes.length]!;
      for (const ev of p.write(buf.subarray(off, off + n))) {
        if (ev.type !== 'data') continue;
        pieces++;
        expect(buf.subarray(ev.offset, ev.offset + ev.data.length).equals(ev.data)).toBe(true);
      }
      off += n;
    }
    expect(pieces).toBeGreaterThan(1);
  });

  it('reads the boundary from Content-Type, quoted or not', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc')).toBe('abc');
    expect(boundaryOf('Multipart/Form-Data; charset=utf-8; boundary="a b;c"')).toBe('a b;c');
    expect(boundaryOf('application/json')).toBeNull();
    expect(boundaryOf(undefined)).toBeNull();
  });

  it('rejects a body that ends before its closing boundary', () => {
    const p = new MultipartParser(boundary);
    p.write(buf.subarray(0, buf.length - 20));
    expect(() => p.end()).toThrow(MultipartError);
  });

  it('rejects a part without Content-Disposition', () => {
    const bad = body(boundary, [{ headers: 'Content-Type: text/plain', content: Buffer.from('x') }]);
    expect(() => parse(boundary, bad, [100])).toThrow(/Content-Disposition/);
  });
});
