// Splits file content (a sequence of chunks) into lines without joining the chunks: each line is
// decoded on its own, so a multi-byte character split across chunks stays intact, and memory is
// bounded by the longest line (capped by maxLineBytes).

export type InputLine =
  /** `line` is one-based, counting every physical line of the file. */
  | { line: number; text: string; tooLong: false }
  | { line: number; text: null; tooLong: true };

/** A line as bytes, not yet decoded (the runner sends long ones to a worker to decode and parse);
 *  `bytes` is null for a line longer than maxLineBytes. */
export interface RawLine {
  line: number;
  bytes: Uint8Array | null;
}

/** A raw line's text: without its CR, and without a byte order mark on the file's first line
 *  (Windows editors write one; it is not part of the first request). */
export function decodeLine(raw: RawLine & { bytes: Uint8Array }): string {
  let bytes = raw.bytes;
  if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return raw.line === 1 && text.startsWith('\uFEFF') ? text.slice(1) : text;
}

function toInputLine(raw: RawLine): InputLine {
  return raw.bytes === null ? { line: raw.line, text: null, tooLong: true } : { line: raw.line, text: decodeLine({ line: raw.line, bytes: raw.bytes }), tooLong: false };
}

/** Push-based line splitting into raw lines: feed chunks as they come, get the lines each one
 *  completes. A line's bytes may be a view of the chunk that holds it. */
export class RawLineSplitter {
  private parts: Uint8Array[] = [];
  private partBytes = 0;
  private tooLong = false;
  private line = 0;

  constructor(private readonly maxLineBytes: number) {}

  private emit(): RawLine {
    this.line++;
    if (this.tooLong) return { line: this.line, bytes: null };
    const parts = this.parts;
    return { line: this.line, bytes: parts.length === 1 ? parts[0]! : Buffer.concat(parts, this.partBytes) };
  }

  /** The lines `chunk` completes. */
  *push(chunk: Uint8Array): Generator<RawLine> {
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl;
      if (!this.tooLong && end > start) {
        this.partBytes += end - start;
        if (this.partBytes > this.maxLineBytes) {
          this.tooLong = true;
          this.parts = [];
        } else {
          this.parts.push(chunk.subarray(start, end));
        }
      }
      if (nl < 0) break;
      yield this.emit();
      this.parts = [];
      this.partBytes = 0;
      this.tooLong = false;
      start = nl + 1;
    }
  }

  /** A last line without a trailing newline. */
  *end(): Generator<RawLine> {
    if (this.parts.length > 0 || this.tooLong) yield this.emit();
    this.parts = [];
    this.partBytes = 0;
    this.tooLong = false;
  }
}

/** The same splitting, each line decoded (a worker receiving chunks by message). */
export class LineSplitter {
  private readonly raw: RawLineSplitter;

  constructor(maxLineBytes: number) {
    this.raw = new RawLineSplitter(maxLineBytes);
  }

  *push(chunk: Uint8Array): Generator<InputLine> {
    for (const r of this.raw.push(chunk)) yield toInputLine(r);
  }

  *end(): Generator<InputLine> {
    for (const r of this.raw.end()) yield toInputLine(r);
  }
}

export function* splitRawLines(chunks: Iterable<Uint8Array>, maxLineBytes: number): Generator<RawLine> {
  const splitter = new RawLineSplitter(maxLineBytes);
  for (const chunk of chunks) yield* splitter.push(chunk);
  yield* splitter.end();
}

export function* splitLines(chunks: Iterable<Uint8Array>, maxLineBytes: number): Generator<InputLine> {
  for (const r of splitRawLines(chunks, maxLineBytes)) yield toInputLine(r);
}

/** Blank lines (e.g. a trailing newline, or spacing) are skipped: they are not requests. */
export function isBlank(text: string): boolean {
  return text.trim().length === 0;
}
