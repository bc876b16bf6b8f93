// Decoding and parsing an input line for the batch runner (dispatch and result files): short lines
// here, long ones in a piscina worker (line-worker.ts). Measured on this machine (Node 20):
// JSON.parse of a request line costs about 4 µs per KiB, so a line of 256 KiB holds the loop ~1 ms
// and an 8 MiB one 17-24 ms; a worker round trip costs the loop far less for such lines (the bytes
// move to the worker; the parsed body comes back as a structured clone).
// Without the compiled worker (running from src/ before a build) every line is parsed here.
import { existsSync } from 'node:fs';
import type { Piscina } from 'piscina';
import { distFile } from '../paths.js';
import { taskPool } from '../pool-entry.js';
import { decodeLine, isBlank, type RawLine } from './lines.js';
import { parseRequestLine, type BatchRequestLine } from './validate.js';
import type { BatchError } from './types.js';
import type { LineTask } from './line-worker.js';

export const LINE_WORKER_FILE = distFile('src/batch/line-worker.js');
/** Lines at least this long (bytes) are parsed in the worker. */
export const OFFLOAD_LINE_BYTES = 256 * 1024;

/** A line's request, or why it has none (blank, or invalid: validation failed it already). */
export type ParsedLine = { ok: true; value: BatchRequestLine } | { ok: false; blank: true } | { ok: false; error: BatchError };

let pool: Piscina<LineTask, ParsedLine> | null = null;

function linePool(): Piscina<LineTask, ParsedLine> | null {
  if (!pool && existsSync(LINE_WORKER_FILE)) {
    pool = taskPool<LineTask, ParsedLine>(LINE_WORKER_FILE, 'batch line worker', { minThreads: 0, maxThreads: 1, idleTimeout: 30_000 });
  }
  return pool;
}

function parseHere(raw: LineTask): ParsedLine {
  const text = decodeLine(raw);
  return isBlank(text) ? { ok: false, blank: true } : parseRequestLine(text, raw.line);
}

/** The request on a raw line (not one over maxLineBytes). Long lines resolve from the worker; a
 *  line whose bytes are a view of a larger buffer is copied first (the chunk it views stays with
 *  the splitter; a Buffer's slice() would be a view, and moving it would detach the chunk). */
export function parseRawLine(raw: RawLine & { bytes: Uint8Array }): ParsedLine | Promise<ParsedLine> {
  const p = raw.bytes.length >= OFFLOAD_LINE_BYTES ? linePool() : null;
  if (!p) return parseHere(raw);
  const own = raw.bytes.byteOffset === 0 && raw.bytes.byteLength === raw.bytes.buffer.byteLength ? raw.bytes : new Uint8Array(raw.bytes);
  return p.run({ line: raw.line, bytes: own }, { transferList: [own.buffer as ArrayBuffer] });
}

export async function closeLinePool(): Promise<void> {
  const p = pool;
  pool = null;
  if (p) await p.destroy();
}
