// A multipart/form-data body read into its form: small fields as strings, file parts as byte
// ranges of the body (their content is not copied: whoever stores a file reads its range of the
// spooled body). Runs in the upload worker (multipart-worker.ts), or on the loop in slices where
// there is no worker (multipart-form.ts).
import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { MultipartError, MultipartParser } from './multipart.js';

export interface FormField {
  name: string;
  value: string;
}

/** A file part: `bytes` bytes of the body from `offset`. */
export interface FormFilePart {
  name: string;
  filename: string;
  contentType: string | null;
  offset: number;
  bytes: number;
}

export interface ScannedForm {
  fields: FormField[];
  files: FormFilePart[];
}

export interface FormLimits {
  /** Bytes of one non-file field. */
  maxFieldBytes: number;
  /** Parts in one form. */
  maxParts: number;
}

/** A form a client must fix: 400, naming the part when there is one. */
export class FormError extends Error {
  constructor(
    message: string,
    readonly param: string | null,
  ) {
    super(message);
    this.name = 'FormError';
  }
}

type OpenPart = { kind: 'file'; part: FormFilePart } | { kind: 'field'; name: string; bytes: Buffer[]; size: number };

export class FormScanner {
  private readonly parser: MultipartParser;
  private readonly form: ScannedForm = { fields: [], files: [] };
  private part: OpenPart | null = null;
  private parts = 0;

  constructor(
    boundary: string,
    private readonly limits: FormLimits,
  ) {
    this.parser = new MultipartParser(boundary);
  }

  /** Feeds the next piece of the body; the piece may be reused by the caller afterwards. */
  feed(chunk: Uint8Array): void {
    for (const ev of this.parser.write(chunk)) {
      if (ev.type === 'part') {
        if (++this.parts > this.limits.maxParts) throw new FormError(`A form may have at most ${this.limits.maxParts} parts.`, null);
        const h = ev.headers;
        this.part = h.filename === null ? { kind: 'field', name: h.name, bytes: [], size: 0 } : { kind: 'file', part: { name: h.name, filename: h.filename, contentType: h.contentType, offset: -1, bytes: 0 } };
      } else if (ev.type === 'data') {
        const p = this.part;
        if (p?.kind === 'file') {
          // A part's bytes are one run of the body: the first piece fixes where it starts.
          if (p.part.offset < 0) p.part.offset = ev.offset;
          else if (p.part.offset + p.part.bytes !== ev.offset) throw new Error('multipart: file part data is not contiguous');
          p.part.bytes += ev.data.length;
        } else if (p?.kind === 'field') {
          p.size += ev.data.length;
          if (p.size > this.limits.maxFieldBytes) throw new FormError(`Form field '${p.name}' is longer than ${this.limits.maxFieldBytes} bytes.`, p.name);
          p.bytes.push(Buffer.from(ev.data));
        }
      } else if (ev.type === 'part-end') {
        const p = this.part;
        if (p?.kind === 'field') this.form.fields.push({ name: p.name, value: Buffer.concat(p.bytes).toString('utf8') });
        else if (p?.kind === 'file') {
          if (p.part.offset < 0) p.part.offset = 0; // empty file
          this.form.files.push(p.part);
        }
        this.part = null;
      }
    }
  }

  /** The body ended: the form, or a MultipartError if it was cut short. */
  end(): ScannedForm {
    this.parser.end();
    return this.form;
  }
}

/** Bytes read from the spooled body at a time. */
const READ_BYTES = 1 << 20;

/** Scans a spooled body with blocking reads (the worker's way: nothing else runs on its thread). */
export function scanFormFileSync(path: string, boundary: string, limits: FormLimits): ScannedForm {
  const scanner = new FormScanner(boundary, limits);
  const buf = Buffer.allocUnsafe(READ_BYTES);
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      scanner.feed(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return scanner.end();
}

/** Bytes scanned per loop turn where there is no worker: a slice costs the loop well under 1 ms. */
const SLICE_BYTES = 128 * 1024;

/** Scans a spooled body on the calling thread, one asynchronous read (one loop turn) per slice. */
export async function scanFormFile(path: string, boundary: string, limits: FormLimits): Promise<ScannedForm> {
  const scanner = new FormScanner(boundary, limits);
  const buf = Buffer.allocUnsafe(SLICE_BYTES);
  const fh = await open(path, 'r');
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      scanner.feed(buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
  return scanner.end();
}

/** What a client sent wrong, as a FormError; other failures as they are. */
export function asFormError(err: unknown): unknown {
  if (err instanceof MultipartError) return new FormError(err.message, 'file');
  return err;
}
