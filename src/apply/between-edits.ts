// A head edited with the first lines of its body rewritten: `func get(_ path:)` → `func get(_ path:,
// query:)`, then `var components = …` and an `if` block where `let url = …` stood, then `var request
// = URLRequest(url: url)` edited (or an original line as it was). The dropped body lines lie between
// the edited head and a line of its body that one stretch of the update shows right after the new
// lines: those new lines replace them (rule (a) of loss.ts, by place). The edited head is the
// anchor rule (b) lacks (its text is not the original's), so it must keep its name (a signature
// change, not another definition), and the new lines between must be at least as many as the lines
// they replace, so a long stretch is never read as rewritten by one new line. Edits of other lines
// (table rows: `input: "1.-2.3"` read as an edit of `input: "01.2.3"`) are no such anchor.
// A local the edit moved into the head as a parameter with its value as default (`rng =
// Random.default_rng()` → `…; rng=Random.default_rng())`) is replaced by the head itself, no new line needed.
import { escapeRe } from './escape-regexp.js';
import { lineIdentity } from './line-identity.js';
import type { Lines } from './lines.js';
import type { Segment } from './merge-context.js';

export interface PairedEdit {
  /** The original line the edit replaces (or a kept line, for a gap's edge). */
  j: number;
  /** The output line that replaces (or keeps) it. */
  k: number;
  /** A kept line bounding the gap, not an edit. */
  kept?: boolean;
}

/**
 * The original rows among `open` (missing, unlicensed) that lie between an edited head a and a
 * later line b of its body (edited or kept; a.k < b.k), all deeper than the head, when one segment
 * shows the output's lines from a to b in order with no marker between and those lines hold at least
 * as many new lines (no original line's text) as there are rows between a and b (rows whose local the
 * head's edit took as a parameter need none: `movedIntoHead`).
 */
export function rowsBetweenEdits(orig: Lines, out: Lines, segments: readonly Segment[], edits: readonly PairedEdit[], open: readonly number[], isOriginalText: (norm: string) => boolean): Set<number> {
  const rows = new Set<number>();
  for (const a of edits) {
    if (a.kept || !editedHead(orig, out, a)) continue;
    // Locals of its body the edit moved into the head go with the head, wherever the body goes on.
    const moved = new Set<number>();
    for (const j of open) {
      if (j <= a.j) continue;
      if (orig.indent[j]! <= orig.indent[a.j]!) break;
      if (movedIntoHead(orig.norm[j]!, orig.norm[a.j]!, out.norm[a.k]!)) moved.add(j);
    }
    for (const j of moved) rows.add(j);
    for (const b of edits) {
      if (b.j <= a.j || b.k <= a.k || orig.indent[b.j]! <= orig.indent[a.j]!) continue;
      const inner = open.filter((j) => j > a.j && j < b.j);
      if (inner.length === 0 || inner.some((j) => orig.indent[j]! <= orig.indent[a.j]!)) continue;
      let fresh = 0;
      for (let k = a.k + 1; k < b.k; k++) if (!out.blank[k] && !isOriginalText(out.norm[k]!)) fresh++;
      const rest = inner.filter((j) => !moved.has(j));
      if (fresh < rest.length || !shownInOneSegment(segments, out, a.k, b.k)) continue;
      for (const j of inner) rows.add(j);
    }
  }
  return rows;
}

/** A local's assignment (`rng = f()`, `val clock = Clock.systemUTC()`, `$n = 3;`): its name and value. */
const LOCAL = /^(?:(?:let|var|val|const|local|my|auto|final)\s+)?\$?([A-Za-z_]\w*)(?:\s*:\s*[^=]+?)?\s*:?=\s*(.+?);?$/;

/** Row `norm` assigns a local that the edited head now takes as a parameter defaulting to the same value (absent from the old head). */
function movedIntoHead(norm: string, oldHead: string, newHead: string): boolean {
  const m = LOCAL.exec(norm);
  if (!m) return false;
  const [, name, value] = m as unknown as [string, string, string];
  const named = new RegExp(`(?:^|[^\\w$])\\$?${escapeRe(name)}(?![\\w$])`);
  const compact = (t: string): string => t.replace(/\s+/g, '');
  return value.length > 1 && named.test(newHead) && !named.test(oldHead) && compact(newHead).includes(compact(value));
}

/** Original row a.j opens a block (its next solid line deeper, or an Allman `{`) and its edit names the same thing. */
function editedHead(orig: Lines, out: Lines, a: PairedEdit): boolean {
  const id = lineIdentity(orig.norm[a.j]!);
  if (id === null || !keepsName(id, out.norm[a.k]!)) return false;
  let y = a.j + 1;
  while (y < orig.text.length && orig.blank[y]) y++;
  if (y < orig.text.length && orig.norm[y] === '{' && orig.indent[y] === orig.indent[a.j]) y++;
  while (y < orig.text.length && orig.blank[y]) y++;
  return y < orig.text.length && orig.indent[y]! > orig.indent[a.j]!;
}

/** The edited line names `id` too, or names nothing its reader knows but still writes the name (`Build(…, string? region = null)`). */
function keepsName(id: string, edited: string): boolean {
  const now = lineIdentity(edited);
  if (now !== null) return now === id;
  const name = id.slice(id.indexOf(' ') + 1);
  return name.length > 0 && new RegExp(`(?:^|[^\\w$])${escapeRe(name)}(?![\\w$])`).test(edited);
}

/** Output lines ka < kb (and every line between) stand in this order inside one segment's lines. */
function shownInOneSegment(segments: readonly Segment[], out: Lines, ka: number, kb: number): boolean {
  const want: string[] = [];
  for (let k = ka; k <= kb; k++) if (!out.blank[k]) want.push(out.norm[k]!);
  for (const seg of segments) {
    const l = seg.lines;
    const solid: string[] = [];
    for (let x = 0; x < l.text.length; x++) if (!l.blank[x]) solid.push(l.norm[x]!);
    for (let s = 0; s + want.length <= solid.length; s++) {
      let ok = true;
      for (let w = 0; w < want.length && ok; w++) ok = solid[s + w] === want[w];
      if (ok) return true;
    }
  }
  return false;
}
