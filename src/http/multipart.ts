// Streaming multipart/form-data parser (RFC 7578). Fed body chunks as they arrive, it returns
// events; part bodies come out in pieces, so a file part is never held whole. Memory is bounded
// by the chunk size plus the delimiter length (bodies) or maxHeaderBytes (part headers).
// HTTP parsing: it lives in http/ with the rest of the request intake (uploads are its one user).

export interface PartHeaders {
  /** `name` of Content-Disposition. */
  name: string;
  /** `filename` of Content-Disposition, when the part is a file. */
  filename: string | null;
  contentType: string | null;
}

export type MultipartEvent =
  | { type: 'part'; headers: PartHeaders }
  /** `offset`: where `data` starts in the body (bytes fed so far count from 0). */
  | { type: 'data'; data: Buffer; offset: number }
  | { type: 'part-end' }
  | { type: 'done' };

export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

/** Boundary from a `multipart/form-data; boundary=…` Content-Type, or null. */
export function boundaryOf(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const [type, ...params] = splitParams(contentType);
  if (type?.toLowerCase() !== 'multipart/form-data') return null;
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq > 0 && p.slice(0, eq).trim().toLowerCase() === 'boundary') {
      const b = unquote(p.slice(eq + 1).trim());
      return b.length >= 1 && b.length <= 70 ? b : null;
    }
  }
  return null;
}

type State = 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'epilogue';

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

export class MultipartParser {
  private readonly delimiter: Buffer;
  private state: State = 'preamble';
  private pending: Buffer;
  /** Bytes fed so far. */
  private fed = 0;

  constructor(
    boundary: string,
    private readonly maxHeaderBytes = 16 * 1024,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    // A leading CRLF lets the first delimiter (which has none) match the same pattern.
    this.pending = Buffer.from(CRLF);
  }

  get finished(): boolean {
    return this.state === 'epilogue';
  }

  write(chunk: Uint8Array): MultipartEvent[] {
    const events: MultipartEvent[] = [];
    if (this.state === 'epilogue') return events;
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Body offset of buf[0] (the leading CRLF put in front of the body sits at -2).
    const base = this.fed - this.pending.length;
    this.fed += chunk.byteLength;
    let pos = 0;
    for (;;) {
      if (this.state === 'preamble') {
        const at = buf.indexOf(this.delimiter, pos);
        if (at < 0) {
          // keep only what could be the start of a delimiter
          pos = Math.max(pos, buf.length - this.delimiter.length + 1);
          break;
        }
        pos = at + this.delimiter.length;
        this.state = 'after-delimiter';
      } else if (this.state === 'after-delimiter') {
        if (buf.length - pos < 2) break;
        if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) {
          this.state = 'epilogue';
          events.push({ type: 'done' });
          pos = buf.length;
          break;
        }
        // transport padding (spaces/tabs) may precede the CRLF
        let p = pos;
        while (p < buf.length && (buf[p] === 0x20 || buf[p] === 0x09)) p++;
        if (buf.length - p < 2) break;
        if (buf[p] !== 0x0d || buf[p + 1] !== 0x0a) throw new MultipartError('malformed multipart body: bad delimiter line');
        pos = p + 2;
        this.state = 'headers';
      } else if (this.state === 'headers') {
        if (buf.length - pos < 2) break;
        let headerText: string;
        if (buf[pos] === 0x0d && buf[pos + 1] === 0x0a) {
          // a part with no headers: the blank line comes straight away
          headerText = '';
          pos += 2;
        } else {
          const end = buf.indexOf(HEADER_END, pos);
          if (end < 0) {
            if (buf.length - pos > this.maxHeaderBytes) throw new MultipartError('multipart part headers too large');
            break;
          }
          headerText = buf.toString('latin1', pos, end);
          pos = end + 4;
        }
        events.push({ type: 'part', headers: parsePartHeaders(headerText) });
        this.state = 'body';
      } else if (this.state === 'body') {
        const at = buf.indexOf(this.delimiter, pos);
        if (at < 0) {
          // everything except a possible partial delimiter at the end is body
          const safe = buf.length - this.delimiter.length + 1;
          if (safe > pos) {
            events.push({ type: 'data', data: buf.subarray(pos, safe), offset: base + pos });
            pos = safe;
          }
          break;
        }
        if (at > pos) events.push({ type: 'data', data: buf.subarray(pos, at), offset: base + pos });
        events.push({ type: 'part-end' });
        pos = at + this.delimiter.length;
        this.state = 'after-delimiter';
      } else {
        pos = buf.length;
        break;
      }
    }
    // Copy the small remainder: `buf` may alias the caller's chunk.
    this.pending = Buffer.from(buf.subarray(pos));
    buf = Buffer.alloc(0);
    return events;
  }

  /** Call when the body ended; throws if the closing delimiter never came. */
  end(): void {
    if (this.state !== 'epilogue') throw new MultipartError('multipart body ended before its closing boundary');
  }
}

function parsePartHeaders(text: string): PartHeaders {
  let disposition: string | null = null;
  let contentType: string | null = null;
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    else if (name === 'content-type') contentType = value;
  }
  if (!disposition) throw new MultipartError('multipart part without Content-Disposition');
  const [kind, ...params] = splitParams(disposition);
  if (kind?.toLowerCase() !== 'form-data') throw new MultipartError('multipart part is not form-data');
  let fieldName: string | null = null;
  let filename: string | null = null;
  let filenameStar: string | null = null;
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq <= 0) continue;
    const key = p.slice(0, eq).trim().toLowerCase();
    const raw = p.slice(eq + 1).trim();
    if (key === 'name') fieldName = latin1ToUtf8(unquote(raw));
    else if (key === 'filename') filename = latin1ToUtf8(unquote(raw));
    else if (key === 'filename*') filenameStar = decodeExtValue(raw);
  }
  if (fieldName === null) throw new MultipartError('multipart part without a name');
  return { name: fieldName, filename: filenameStar ?? filename, contentType };
}

/** Splits `a; b="x;y"; c=d` on semicolons outside quotes. */
function splitParams(value: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quoted && c === '\\' && i + 1 < value.length) {
      cur += c + value[++i];
    } else if (c === '"') {
      quoted = !quoted;
      cur += c;
    } else if (c === ';' && !quoted) {
      out.push(cur.trim());
      cur = '';
    } else {
      cur += c;
    }
  }
  out.push(cur.trim());
  return out;
}

function unquote(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\(.)/g, '$1');
  return v;
}

/** Headers were decoded as latin1 byte-for-byte; browsers and undici send UTF-8 names raw. */
function latin1ToUtf8(s: string): string {
  return Buffer.from(s, 'latin1').toString('utf8');
}

/** RFC 5987 `UTF-8''percent-encoded`. */
function decodeExtValue(raw: string): string | null {
  const m = /^([^']*)'[^']*'(.*)$/.exec(raw);
  if (!m) return null;
  try {
    return decodeURIComponent(m[2]!);
  } catch {
    return null;
  }
}
