// Splits file content (a sequence of chunks) into lines without joining the chunks: each line is
// decoded on its own, so a multi-byte character split across chunks stays intact, and memory is
// bounded by the longest line (capped by maxLineBytes).

export type InputLine =
  /** `line` is one-based, counting every physical line of the file. */
  | { line: number; text: string; tooLong: false }
  | { line: number; text: null; tooLong: true };

/** Push-based line splitting: feed chunks as they come (a worker receiving them by message),
 *  get the lines each one completes. */
export class LineSplitter {
  private parts: Uint8Array[] = [];
  private partBytes = 0;
  private tooLong = false;
  private line = 0;

  constructor(private readonly maxLineBytes: number) {}

  private emit(): InputLine {
    this.line++;
    const line = this.line;
    if (this.tooLong) return { line, text: null, tooLong: true };
    const parts = this.parts;
    let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, this.partBytes);
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    // A UTF-8 byte order mark (Windows editors write one) is not part of the first request.
    return { line, text: line === 1 && text.startsWith('\uFEFF') ? text.slice(1) : text, tooLong: false };
  }

  /** The lines `chunk` completes. */
  *push(chunk: Uint8Array): Generator<InputLine> {
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
  *end(): Generator<InputLine> {
    if (this.parts.length > 0 || this.tooLong) yield this.emit();
    this.parts = [];
    this.partBytes = 0;
    this.tooLong = false;
  }
}

export function* splitLines(chunks: Iterable<Uint8Array>, maxLineBytes: number): Generator<InputLine> {
  const splitter = new LineSplitter(maxLineBytes);
  for (const chunk of chunks) yield* splitter.push(chunk);
  yield* splitter.end();
}

/** Blank lines (e.g. a trailing newline, or spacing) are skipped: they are not requests. */
export function isBlank(text: string): boolean {
  return text.trim().length === 0;
}
