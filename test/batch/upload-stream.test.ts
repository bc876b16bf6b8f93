// The Files API upload path: the body is spooled to a temp file under the data dir as it arrives,
// parsed off the event loop, and stored in LMDB. What a client sees is OpenAI's behaviour; what
// the server keeps after a refused, cut or broken upload is nothing (no temp file, no record).
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toFile } from 'openai';
import { parsesOffThread } from '../../src/http/multipart-pool.js';
import { decodeFileRecord } from '../../src/store/records.js';
import { FileStore } from '../../src/store/files.js';
import { startBatchServer, TEST_KEY, waitFor, type BatchServer } from './harness.js';

const MAX_FILE_BYTES = 64 * 1024 * 1024;
let s: BatchServer;
beforeAll(async () => {
  s = await startBatchServer({ maxFileBytes: MAX_FILE_BYTES });
});
afterAll(async () => {
  await s?.close();
});

const spooled = (): string[] => readdirSync(s.sys.files.spoolDir);
/** Every file record, finished or not. */
function records(): Array<{ id: string; state: string }> {
  const out = [];
  for (const { value } of s.sys.store.files.getRange({})) {
    const r = decodeFileRecord(value);
    if (r) out.push({ id: r.id, state: r.state });
  }
  return out;
}

interface RawResponse {
  status: number;
  body: string;
}

/** Sends `head` and `body` (pieces written as given) on a raw socket and reads the response until the server closes or answers in full. */
function rawRequest(head: string, pieces: Buffer[], opts: { port: number }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const sock = connect(opts.port, '127.0.0.1');
    const got: Buffer[] = [];
    const finish = (): void => {
      const text = Buffer.concat(got).toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (!m) return reject(new Error(`no HTTP response: ${JSON.stringify(text.slice(0, 200))}`));
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: Number(m[1]), body: text.slice(split + 4) });
    };
    sock.on('data', (d) => {
      got.push(d);
      const text = Buffer.concat(got).toString('latin1');
      const cl = /\r\ncontent-length: (\d+)/i.exec(text);
      const split = text.indexOf('\r\n\r\n');
      if (cl && split >= 0 && Buffer.byteLength(text.slice(split + 4), 'latin1') >= Number(cl[1])) {
        sock.destroy();
        finish();
      }
    });
    // The server may close while the client still writes (413 mid-body): that is expected.
    sock.on('error', () => undefined);
    sock.on('close', () => (got.length ? finish() : reject(new Error('connection closed without a response'))));
    sock.write(head);
    for (const p of pieces) sock.write(p);
  });
}

function formParts(boundary: string, purpose: string, filename: string, content: Buffer): { head: Buffer; tail: Buffer; body: Buffer } {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { head, tail, body: Buffer.concat([head, content, tail]) };
}

describe('streamed uploads', () => {
  it('stores a 50 MB JSONL upload and gives it back byte-exact (openai client)', async () => {
    const lines: string[] = [];
    let size = 0;
    for (let i = 0; size < 50_000_000; i++) {
      // varied content: multi-byte characters, a boundary-like line, CRLFs in strings
      const l = JSON.stringify({ custom_id: `r-${i}`, method: 'POST', url: '/v1/chat/completions', body: { model: 'm', messages: [{ role: 'user', content: `item ${i} ünïcødé ✓ \r\n--boundary ${'x'.repeat(i % 300)}` }] } });
      lines.push(l);
      size += l.length + 1;
    }
    const content = Buffer.from(lines.join('\n') + '\n');
    expect(content.length).toBeGreaterThan(50_000_000);
    const f = await s.client.files.create({ file: await toFile(content, 'big.jsonl'), purpose: 'batch' });
    expect(f).toMatchObject({ object: 'file', bytes: content.length, filename: 'big.jsonl', purpose: 'batch', status: 'processed' });
    const got = Buffer.from(await (await s.client.files.content(f.id)).arrayBuffer());
    expect(got.length).toBe(content.length);
    expect(got.equals(content)).toBe(true);
    expect(spooled()).toEqual([]);
    await s.client.files.delete(f.id);
  });

  it('gives the same file with the form parsed on the event loop (SVC_UPLOAD_PARSE_INLINE=1) as in the worker', async () => {
    const content = Buffer.concat([Buffer.from('{"a":"é"}\r\n'), Buffer.alloc(700_000, 0x62), Buffer.from('\n--not-a-boundary\n')]);
    const ids: string[] = [];
    const modes: boolean[] = [];
    for (const inline of [false, true]) {
      if (inline) process.env.SVC_UPLOAD_PARSE_INLINE = '1';
      try {
        modes.push(parsesOffThread());
        const f = await s.client.files.create({ file: await toFile(content, 'same.txt'), purpose: 'user_data' });
        ids.push(f.id);
        expect(Buffer.from(await (await s.client.files.content(f.id)).arrayBuffer()).equals(content)).toBe(true);
      } finally {
        delete process.env.SVC_UPLOAD_PARSE_INLINE;
      }
    }
    // the first upload went through the worker when the build has it (npm test builds first)
    expect(modes[1]).toBe(false);
    for (const id of ids) await s.client.files.delete(id);
    expect(spooled()).toEqual([]);
  });

  it('answers 413 in the error envelope when a chunked body grows past the limit, and keeps nothing', async () => {
    const small = await startBatchServer({ maxFileBytes: 32 * 1024 });
    try {
      const boundary = 'chunked-limit';
      const { body } = formParts(boundary, 'user_data', 'big.txt', Buffer.alloc(400 * 1024, 0x61));
      // no Content-Length: the server learns the size only as the bytes arrive
      const pieces: Buffer[] = [];
      for (let off = 0; off < body.length; off += 16 * 1024) {
        const piece = body.subarray(off, off + 16 * 1024);
        pieces.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
      }
      pieces.push(Buffer.from('0\r\n\r\n'));
      const res = await rawRequest(
        `POST /v1/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked\r\n\r\n`,
        pieces,
        { port: small.server.port },
      );
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'request_too_large', type: 'invalid_request_error' } });
      await waitFor(async () => readdirSync(small.sys.files.spoolDir), (names) => names.length === 0, 5000);
      expect([...small.sys.store.files.getKeys({})]).toEqual([]);
      // the server still serves
      expect((await small.client.files.create({ file: await toFile(Buffer.from('ok'), 'ok.txt'), purpose: 'user_data' })).bytes).toBe(2);
    } finally {
      await small.close();
    }
  });

  it('keeps no temp file and no record when the client disconnects mid-upload', async () => {
    const boundary = 'cut-off';
    const { head } = formParts(boundary, 'batch', 'cut.jsonl', Buffer.alloc(0));
    const declared = head.length + 8 * 1024 * 1024;
    const before = records().length;
    const sock = connect(s.server.port, '127.0.0.1');
    sock.on('error', () => undefined);
    sock.write(`POST /v1/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${declared}\r\n\r\n`);
    sock.write(head);
    sock.write(Buffer.alloc(3 * 1024 * 1024, 0x7b));
    // the body is being spooled
    await waitFor(async () => spooled(), (names) => names.length === 1, 10_000);
    sock.destroy();
    await waitFor(async () => spooled(), (names) => names.length === 0, 10_000);
    expect(records().length).toBe(before);
    // nothing became visible either
    expect((await s.client.files.list()).data.filter((f) => f.filename === 'cut.jsonl')).toEqual([]);
  });

  it('answers 400 to malformed multipart and keeps nothing', async () => {
    const before = records().length;
    const post = (contentType: string, body: Buffer | string) =>
      fetch(`${s.url}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': contentType }, body });
    const cases: Array<[string, Buffer | string]> = [
      // no delimiter at all
      ['multipart/form-data; boundary=abc', 'just some bytes that are not a form'],
      // a part without Content-Disposition
      ['multipart/form-data; boundary=abc', '--abc\r\nContent-Type: text/plain\r\n\r\nx\r\n--abc--\r\n'],
      // the file part's headers never end
      ['multipart/form-data; boundary=abc', `--abc\r\nContent-Disposition: form-data; name="file"; filename="a.jsonl"\r\n${'X-Pad: y\r\n'.repeat(4000)}`],
      // no boundary parameter
      ['multipart/form-data', '--abc--\r\n'],
    ];
    for (const [type, body] of cases) {
      const res = await post(type, body);
      expect(res.status, `${type}: ${String(body).slice(0, 60)}`).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_request_error', type: 'invalid_request_error' } });
    }
    // a well-formed form missing one of its fields
    const { body: noPurpose } = formParts('abc', 'user_data', 'x.txt', Buffer.from('x'));
    const res = await post('multipart/form-data; boundary=abc', noPurpose.toString('latin1').replace('name="purpose"', 'name="other"'));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param: 'purpose', message: expect.stringContaining('required') } });
    const { body: badPurpose } = formParts('abc', 'nope', 'x.txt', Buffer.from('x'));
    const resBad = await post('multipart/form-data; boundary=abc', badPurpose);
    expect(await resBad.json()).toMatchObject({ error: { param: 'purpose', message: expect.stringContaining("'nope' is not one of ['assistants', 'batch'") } });
    const noFile = `--abc\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nuser_data\r\n--abc--\r\n`;
    const resNoFile = await post('multipart/form-data; boundary=abc', noFile);
    expect(resNoFile.status).toBe(400);
    expect(await resNoFile.json()).toMatchObject({ error: { param: 'file', message: expect.stringContaining('required') } });
    const twoFiles = `--abc\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nuser_data\r\n--abc\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\na\r\n--abc\r\nContent-Disposition: form-data; name="file"; filename="b.txt"\r\n\r\nb\r\n--abc--\r\n`;
    const res2 = await post('multipart/form-data; boundary=abc', twoFiles);
    expect(res2.status).toBe(400);
    expect(await res2.json()).toMatchObject({ error: { param: 'file', message: expect.stringContaining('only one file') } });
    expect(records().length).toBe(before);
    expect(spooled()).toEqual([]);
  });

  it('the startup sweep removes uploads a dead process left, not one this process is writing', async () => {
    // Servers listen while models load, and the sweep runs after: an upload may be under way.
    const live = await s.sys.files.beginUpload('live.txt');
    await live.write(Buffer.from('still arriving'));
    // An 'uploading' record this FileStore did not begin stands for a dead process's.
    const dead = await new FileStore(s.sys.store, s.sys.files.opts).beginUpload('dead.txt');
    await dead.write(Buffer.from('never finished'));
    await dead.flush();
    expect(await s.sys.files.sweepIncomplete()).toBe(1);
    expect(records().find((r) => r.id === dead.id)).toBeUndefined();
    const f = await live.finish('user_data');
    expect(Buffer.from(await (await s.client.files.content(f.id)).arrayBuffer()).toString()).toBe('still arriving');
    await s.client.files.delete(f.id);
  });
});
