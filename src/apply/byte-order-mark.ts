// A byte-order mark belongs to the file, not to its first line. Merged as part of line 1, it moves
// with that line: a new import written above it leaves the mark on line 2, and a first line the
// update replaces takes the mark with it. The merge runs on the text without it and puts it back
// at the start of the result.
const BOM = '\uFEFF';

export function hasByteOrderMark(text: string): boolean {
  return text.startsWith(BOM);
}

export function withoutByteOrderMark(text: string): string {
  return hasByteOrderMark(text) ? text.slice(1) : text;
}

export function withByteOrderMark(text: string): string {
  return BOM + withoutByteOrderMark(text);
}
