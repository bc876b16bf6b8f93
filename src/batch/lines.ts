// Splits file content (a sequence of chunks) into lines without joining the chunks: each line is
// decoded on its own, so a multi-byte character split across chunks stays intact, and memory is
// bounded by the longest line (capped by maxLineBytes).

export type InputLine =
  /** `line` is one-based, counting every physical line of the file. */
  | { line: number; text: string; tooLong: false }
  | { line: number; text: null; tooLong: true };

export function* splitLines(chunks: Iterable<Uint8Array>, maxLineBytes: number): Generator<InputLine> {
  let parts: Uint8Array[] = [];
  let partBytes = 0;
  let tooLong = false;
  let line = 0;
  const emit = (): InputLine => {
    line++;
    if (tooLong) return { line, text: null, tooLong: true };
    let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, partBytes);
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    // A UTF-8 byte order mark (Windows editors write one) is not part of the first request.
    return { line, text: line === 1 && text.startsWith('\uFEFF') ? text.slice(1) : text, tooLong: false };
  };
  for (const chunk of chunks) {
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl;
      if (!tooLong && end > start) {
        partBytes += end - start;
        if (partBytes > maxLineBytes) {
          tooLong = true;
          parts = [];
        } else {
          parts.push(chunk.subarray(start, end));
        }
      }
      if (nl < 0) break;
      yield emit();
      parts = [];
      partBytes = 0;
      tooLong = false;
      start = nl + 1;
    }
  }
  // a last line without a trailing newline
  if (parts.length > 0 || tooLong) yield emit();
}

/** Blank lines (e.g. a trailing newline, or spacing) are skipped: they are not requests. */
export function isBlank(text: string): boolean {
  return text.trim().length === 0;
}
