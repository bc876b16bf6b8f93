// The definitions an instruction names ("Add an `outstanding` query to InvoiceRepository",
// "Reject non-positive ids in getGizmo", "StockItemDto.validate should …") tell twins apart: when a
// segment's anchor occurs in several near-identical definitions with equal context, the copy inside
// the named one is the one the edit is about. Only a tie-break: it never outweighs context.
import type { Lines } from './lines.js';

/** Code-looking names of the instruction: backticked, camelCase, snake_case, dotted parts, PascalCase. */
export function instructionNames(instruction: string | null): ReadonlySet<string> {
  const out = new Set<string>();
  if (!instruction) return out;
  for (const q of instruction.matchAll(/`([^`]+)`/g)) for (const w of q[1]!.match(/[A-Za-z_$][\w$]*/g) ?? []) if (w.length >= 3) out.add(w);
  // camelCase / PascalCase with an inner capital, snake_case, `$` names.
  for (const m of instruction.matchAll(/[A-Za-z_$][\w$]*/g)) if (m[0].length >= 3 && /[a-z][A-Z]|_|\$/.test(m[0])) out.add(m[0]);
  for (const n of spelledTypeNames(instruction)) out.add(n);
  return out;
}

/**
 * A type named the way people talk: "the Adyen client's _request" is `AdyenClient` (set bc py17),
 * "the invoice service" `InvoiceService`: two or three words in a row, joined in PascalCase. Names
 * the file does not define tie-break nothing.
 */
function spelledTypeNames(instruction: string): string[] {
  const out: string[] = [];
  const words = [...instruction.matchAll(/[A-Za-z][A-Za-z0-9]*/g)];
  const pascal = (w: string): string => w[0]!.toUpperCase() + w.slice(1);
  for (let a = 0; a < words.length; a++) {
    let name = pascal(words[a]![0]);
    for (let b = a + 1; b < words.length && b <= a + 2; b++) {
      const gap = instruction.slice(words[b - 1]!.index! + words[b - 1]![0].length, words[b]!.index!);
      if (!/^ +$/.test(gap)) break;
      name += pascal(words[b]![0]);
      out.push(name);
    }
  }
  return out;
}

/** Nearest non-blank line above y indented less than `indent`, or -1. */
function enclosingHeader(o: Lines, y: number, indent: number): number {
  for (let x = y - 1; x >= 0 && y - x <= MAX_SCOPE_WALK; x--) if (!o.blank[x] && o.indent[x]! < indent) return x;
  return -1;
}

/** Headers walked up from a line: enough for class > method > block nesting. */
const MAX_SCOPE_DEPTH = 6;
/** Lines walked up per header (a long method body between a line and its header). */
const MAX_SCOPE_WALK = 400;

/**
 * True when original line j lies inside a block whose header line names one of `names` (as a whole
 * word). Walks at most MAX_SCOPE_DEPTH headers and MAX_SCOPE_WALK lines each.
 */
export function inNamedScope(o: Lines, j: number, names: ReadonlySet<string>): boolean {
  if (names.size === 0) return false;
  let y = j;
  let indent = o.indent[j]!;
  for (let d = 0; d < MAX_SCOPE_DEPTH && indent > 0; d++) {
    const h = enclosingHeader(o, y, indent);
    if (h < 0) return false;
    for (const w of o.norm[h]!.match(/[A-Za-z_$][\w$]*/g) ?? []) if (names.has(w)) return true;
    y = h;
    indent = o.indent[h]!;
  }
  return false;
}
