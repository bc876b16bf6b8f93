// A block the update shows whole (its opening and its closing line in one segment) that reads like
// the original block next to the anchors but is a new sibling copied from it: a list entry, a widget,
// a form field, a route handler written in the shape of its neighbour. Growing a segment's edge pairs
// such a copy line by line with the neighbour (equal openers and closers, values read as edited), so
// the neighbour's own lines read as replaced and vanish without the update showing any edit of them.
// The copy stands for the original block only when something of that block is shown in it: an equal
// head that occurs once in the original, a head that reads as the original head's edit, or (under a
// head the original repeats, `{`, `ListTile(`, `<div className="field">`) one of the block's own
// lines, i.e. a body line the original has once. Otherwise the evidence does not decide between
// "edited in place" and "new beside it", and a new block keeps the original (a visible duplicate,
// never a silent loss).
import { bracketDelta, closesAt, openedAt } from './brackets.js';
import { alikeFlatHeads, enclosingFlatBlock, flatBlock, flatHeadRenamed, flatNeighbour, namesOriginalBlock } from './flat-blocks.js';
import { headLine } from './foreign-head.js';
import { attachedAnnotations, commentLine } from './licence-rules.js';
import { rowNamesDiffer } from './line-identity.js';
import { extendedInPlace } from './extended-line.js';
import { INLINE_MARKER } from './markers.js';
import { CLOSING_TAG_LINE, editedVersion, renamedInPlace, sameStatementEdited, solidRow, type Lines } from './lines.js';
import { rowsOf } from './merge-context.js';

/** The [opening, closing] lines of the block line x opens (dir 1) or closes (dir -1), or null. */
function blockAround(l: Lines, x: number, dir: 1 | -1): [number, number] | null {
  const tag = tagBlock(l, x, dir);
  if (tag) return tag;
  const d = bracketDelta(l.text[x]!);
  // An Allman head (`new MenuItem`, then `{` at its indentation) opens the block its `{` opens.
  const brace = dir > 0 && d === 0 ? solidRow(l, x, 1) : -1;
  if (brace >= 0 && l.norm[brace] === '{' && l.indent[brace] === l.indent[x]) {
    const end = closesAt(l.text, brace);
    return end < 0 ? null : [x, end];
  }
  // A line that opens (closes) no bracket may head (end) a block of a language without them.
  if (dir > 0 ? d <= 0 : d >= 0) return flatBlock(l, x, dir);
  const other = dir > 0 ? closesAt(l.text, x) : openedAt(l.text, x, 0);
  if (other < 0) return null;
  return dir > 0 ? [x, other] : [other, x];
}

const OPENING_TAG = /^<([\w.:-]+)(?:\s[^<>]*)?>$/;

/** A markup element on lines of its own: its opening tag and the closing tag at the same indentation. */
function tagBlock(l: Lines, x: number, dir: 1 | -1): [number, number] | null {
  const m = (dir > 0 ? OPENING_TAG : CLOSING_TAG_LINE).exec(l.norm[x]!);
  if (!m || l.norm[x]!.endsWith('/>')) return null;
  for (let y = solidRow(l, x, dir); y >= 0; y = solidRow(l, y, dir)) {
    if (l.indent[y]! > l.indent[x]!) continue;
    if (l.indent[y]! < l.indent[x]!) return null;
    const other = (dir > 0 ? CLOSING_TAG_LINE : OPENING_TAG).exec(l.norm[y]!);
    return other && other[1] === m[1] ? (dir > 0 ? [x, y] : [y, x]) : null;
  }
  return null;
}

/** The line a block's head starts on (foreign-head.ts headLine), but a `{` after a finished entry (`},`) is its own head. */
function headOf(l: Lines, h: number): number {
  if (l.norm[h] !== '{') return headLine(l, h);
  const above = solidRow(l, h, -1);
  return above >= 0 && bracketDelta(l.text[above]!) === 0 && !/[,;]$/.test(l.norm[above]!) ? headLine(l, h) : h;
}

/**
 * Segment line i (of s) would pair with original line j while an edge of the segment grows in
 * direction dir (1: i opens a block; -1: i closes one). True when the segment shows that block whole
 * and it does not stand for the original block at j (see the file comment): the pair, and the
 * growth past it, are refused.
 */
export function copiedSiblingBlock(s: Lines, i: number, o: Lines, j: number, dir: 1 | -1): boolean {
  return copiedBlocks(s, i, o, j, dir) !== null;
}

/**
 * Where an edge growing in direction dir goes on past a copied block that segment line i opens
 * (dir 1) or closes (dir -1), matched to original line j: the segment line beyond the copy, the
 * original line staying j (the copy is new lines inserted there); null when i is no such line.
 */
export function pastCopiedBlock(s: Lines, i: number, o: Lines, j: number, dir: 1 | -1): number | null {
  const hit = copiedBlocks(s, i, o, j, dir);
  return hit === null ? null : (dir > 0 ? hit[0][1] : hit[0][0]) + dir;
}

/** The segment's and the original's blocks of a refused pair (see copiedSiblingBlock), or null. */
function copiedBlocks(s: Lines, i: number, o: Lines, j: number, dir: 1 | -1): [[number, number], [number, number]] | null {
  const sb = blockAround(s, i, dir);
  const ob = sb && blockAround(o, j, dir);
  if (!sb || !ob) return null;
  return copyOf(s, sb, o, ob) ? [sb, ob] : null;
}

/** Levels of enclosing blocks compared for a line inside them. */
const MAX_LEVELS = 4;

/** The nearest block around row x (its opening line above x, its closing line at or below x), or null. */
function enclosingBlock(l: Lines, x: number): [number, number] | null {
  let depth = l.indent[x]!;
  for (let y = x - 1; y >= 0; y--) {
    if (l.blank[y] || l.indent[y]! >= depth) continue;
    depth = l.indent[y]!;
    const b = blockAround(l, y, 1);
    if (b && b[1] >= x) return b;
  }
  return enclosingFlatBlock(l, x);
}

/**
 * Segment line i sits in a block the segment shows whole, whose head is original line j's block's
 * head as it was or edited (`{` and `{`, `ListTile(` and `ListTile(`), and that block copies j's
 * (copyOf): i is a line of the copy, whatever text it shares with j (`burst: 1,` in a new entry).
 * Blocks of unlike heads say nothing here (a new `if` wrapping old lines).
 */
function insideCopy(s: Lines, i: number, o: Lines, j: number): [[number, number], [number, number]] | null {
  let sb = enclosingBlock(s, i);
  let ob = enclosingBlock(o, j);
  for (let level = 0; sb && ob && level < MAX_LEVELS; level++) {
    if (copyOf(s, sb, o, ob)) return [sb, ob];
    sb = enclosingBlock(s, sb[0]);
    ob = enclosingBlock(o, ob[0]);
  }
  return null;
}

/**
 * Original block ob has a sibling of an alike head right before or after it, blank lines and
 * comment lines between at most (`// PATCH /posts/:id` above each route names it for the reader).
 */
function amongSiblings(o: Lines, ob: [number, number]): boolean {
  const oh = headOf(o, ob[0]);
  const start = Math.min(oh, ...attachedAnnotations(o, oh));
  const before = pastComments(o, start, -1);
  const after = pastComments(o, ob[1], 1);
  const prev = before >= 0 && o.indent[before] === o.indent[oh] ? blockAround(o, before, -1) : null;
  const next = after >= 0 && o.indent[after] === o.indent[oh] ? blockAround(o, after, 1) : null;
  if ((prev !== null && alikeHeads(o, prev, o, ob)) || (next !== null && alikeHeads(o, next, o, ob))) return true;
  // Blocks without brackets end deeper than their heads (a task's last key, a branch's `;;`).
  return [flatNeighbour(o, ob, -1), flatNeighbour(o, ob, 1)].some((b) => b !== null && alikeHeads(o, b, o, ob));
}

/** The next non-blank row from x in direction dir that is not a comment line, or -1. */
function pastComments(o: Lines, x: number, dir: 1 | -1): number {
  let y = solidRow(o, x, dir);
  while (y >= 0 && commentLine(o.norm[y]!)) y = solidRow(o, y, dir);
  return y;
}

function alikeHeads(s: Lines, sb: [number, number], o: Lines, ob: [number, number]): boolean {
  const head = o.norm[headOf(o, ob[0])]!;
  const shown = s.norm[headOf(s, sb[0])]!;
  return head === shown || editedVersion(head, shown) || sameStatementEdited(head, shown) || renamedInPlace(head, shown) || extendedInPlace(head, shown) || sameReceiverCall(head, shown) || alikeFlatHeads(s, headOf(s, sb[0]), o, headOf(o, ob[0])) || sameLiteralCall(head, shown);
}

/** A bare call whose first argument is a string literal, and what follows that literal: `get("/{id}") {`. */
const LITERAL_CALL = /^[A-Za-z_$][\w$]*\(\s*(["'`])(?:\\.|(?!\1).)*\1(.*)$/;

/**
 * Two heads calling a bare name on a literal, the rest of the line alike (Ktor's `get("/{id}") {`
 * and `post("/{id}/return") {`): registrations of one kind, whatever the verb and the path.
 */
function sameLiteralCall(a: string, b: string): boolean {
  const ma = LITERAL_CALL.exec(a);
  return ma !== null && LITERAL_CALL.exec(b)?.[2] === ma[2];
}

/** A method called on a receiver, opening the call: `router.post(`, `app.get('/x', auth, (req, res) => {`. */
const RECEIVER_CALL = /^([A-Za-z_$][\w$]*)\.[A-Za-z_$][\w$]*\(/;

/**
 * Two heads calling methods of one receiver (`router.post(` with its arguments on the lines below,
 * `router.get('/:id', requireAuth, async (req, res, next) => {` on one line): registrations of one
 * kind, whatever the method and however the arguments are laid out.
 */
function sameReceiverCall(a: string, b: string): boolean {
  const ra = RECEIVER_CALL.exec(a);
  return ra !== null && RECEIVER_CALL.exec(b)?.[1] === ra[1];
}

function copyOf(s: Lines, sb: [number, number], o: Lines, ob: [number, number]): boolean {
  // A block of one or two lines carries nothing of its own to compare.
  if (ob[1] - ob[0] < 2) return false;
  const sh = headOf(s, sb[0]);
  const oh = headOf(o, ob[0]);
  const head = o.norm[oh]!;
  const shown = s.norm[sh]!;
  const once = (n: string): boolean => rowsOf(o, n).length === 1;
  // A call head named by the literal below it (`router.post(` / `'/:id/publish',`) is that route's head only under that name.
  if (shown === head && once(head) && !rowNamesDiffer(s, sh, o, oh)) return false;
  // Unlike heads are judged elsewhere (new-name-evidence.ts, rewritten-head.ts): a new `if` around old lines is no copy.
  if (!alikeHeads(s, sb, o, ob)) return false;
  // Only a block among siblings of its shape is copied like this (a call's arguments edited in place are not).
  if (!amongSiblings(o, ob)) return false;
  // A bracket-less block's last line is its own content (`notify: …`, `RUN …`), not a closer.
  const oEnd = flatBlock(o, ob[0], 1)?.[1] === ob[1] ? ob[1] + 1 : ob[1];
  const sEnd = flatBlock(s, sb[0], 1)?.[1] === sb[1] ? sb[1] + 1 : sb[1];
  const own: string[] = [];
  for (let y = ob[0] + 1; y < oEnd; y++) if (!o.blank[y] && !o.weak[y] && once(o.norm[y]!)) own.push(o.norm[y]!);
  // A bracket-less block's head names it (a task's name, a case pattern, a stage): under another
  // name, a block that shows none of its own lines is another block, even with one own line.
  const flatRenamed = flatHeadRenamed(s, sh, o, oh);
  // Under its own name (`FROM … AS runtime` rewritten from another image) or the name of another
  // original block, a bracket-less block stands for that block: only a new name makes a copy.
  if (alikeFlatHeads(s, sh, o, oh) && (!flatRenamed || namesOriginalBlock(s, sh, o, oh))) return false;
  // One line of its own is too little to tell a copy from that line's edit, unless the block is
  // another sibling's line for line (that sibling's head as it is, each line as it is or edited):
  // a new cell written like the cell before it is that cell's copy, not the next cell's edit.
  if (own.length < 2 && !(own.length === 1 && (copiesOtherSibling(s, sb, o, ob) || flatRenamed))) return false;
  // Values copied from the sibling (`burst: 1,`) are shown too: its edit keeps most of its own lines.
  // A line shortened by an inline marker (`ignores: ["dist/", /* ... */, "x"],`) shows the line it stands for.
  const inCopy = s.norm.slice(sb[0] + 1, sEnd);
  const shownIn = (n: string): boolean => inCopy.some((c) => c === n || standsFor(c, n));
  const kept = own.filter(shownIn).length * 2;
  // A head naming another thing by its literal (`"POST /tasks/{id}/done"` → `"…/reopen"`) is a new
  // sibling's unless the block's edit shows more than half of it: at exactly half it is a copy.
  // So is a bracket-less block under another name (`- name: Deploy site configs`, `deploy)`).
  return flatRenamed || headLiteralRenamed(shown, head) ? kept <= own.length : kept < own.length;
}

/** The first string literal of a line, with its quotes. */
const FIRST_LITERAL = /(["'`])(?:\\.|(?!\1).)*\1/;

/** Two different heads whose first string literals differ (a route path, a registered name). */
function headLiteralRenamed(shown: string, head: string): boolean {
  if (shown === head) return false;
  const a = FIRST_LITERAL.exec(shown);
  const b = FIRST_LITERAL.exec(head);
  return a !== null && b !== null && a[0] !== b[0];
}

/** The segment block sb repeats, line for line, a sibling of ob right before or after it whose head differs from ob's. */
function copiesOtherSibling(s: Lines, sb: [number, number], o: Lines, ob: [number, number]): boolean {
  const before = solidRow(o, headOf(o, ob[0]), -1);
  const after = solidRow(o, ob[1], 1);
  const siblings = [before >= 0 ? blockAround(o, before, -1) : null, after >= 0 ? blockAround(o, after, 1) : null];
  return siblings.some((sib) => {
    if (!sib || o.indent[sib[0]] !== o.indent[ob[0]] || o.norm[sib[0]] === o.norm[ob[0]] || o.norm[sib[0]] !== s.norm[sb[0]]) return false;
    const theirs = solidRows(o, sib[0], sib[1]);
    const shown = solidRows(s, sb[0], sb[1]);
    return theirs.length === shown.length && shown.every((x, n) => s.norm[x] === o.norm[theirs[n]!] || editedVersion(o.norm[theirs[n]!]!, s.norm[x]!));
  });
}

/** The non-blank rows [a, b] of l. */
function solidRows(l: Lines, a: number, b: number): number[] {
  const rows: number[] = [];
  for (let x = a; x <= b; x++) if (!l.blank[x]) rows.push(x);
  return rows;
}

/** Update line c holds an inline marker and the original line n starts and ends as c does around it. */
function standsFor(c: string, n: string): boolean {
  const m = INLINE_MARKER.exec(c);
  if (!m) return false;
  const before = c.slice(0, m.index).trimEnd();
  const after = c.slice(m.index + m[0].length).replace(/^[\s,]+/, '');
  return n.startsWith(before) && n.endsWith(after);
}

/** A copied block of the segment and the original block it was matched into, each with the annotations above its head. */
export type CopiedRange = [[number, number], [number, number]];

/**
 * The copied blocks among a segment's matched pairs: each pair of an opening (closing) line whose
 * segment block copies, and does not stand for, the original block it was matched into; with
 * renamedOnly, only copies whose head names another thing by its first literal (a route path).
 */
export function copiedRanges(s: Lines, o: Lines, pairs: ReadonlyArray<[number, number]>, renamedOnly = false): CopiedRange[] {
  const found: CopiedRange[] = [];
  for (const [i, j] of pairs) {
    if (s.blank[i] || found.some(([sb]) => i >= sb[0] && i <= sb[1])) continue;
    const hit = copiedBlocks(s, i, o, j, bracketDelta(s.text[i]!) < 0 || CLOSING_TAG_LINE.test(s.norm[i]!) ? -1 : 1) ?? insideCopy(s, i, o, j);
    if (!hit) continue;
    const [sb, ob] = hit;
    if (renamedOnly && !headLiteralRenamed(s.norm[headOf(s, sb[0])]!, o.norm[headOf(o, ob[0])]!)) continue;
    // Attributes and annotations above a head go with its block (`@Test` above a copied test).
    const sa = attachedAnnotations(s, headOf(s, sb[0]));
    const oa = attachedAnnotations(o, headOf(o, ob[0]));
    found.push([[Math.min(sb[0], ...sa), sb[1]], [Math.min(ob[0], ...oa), ob[1]]]);
  }
  return found;
}

/** The pairs that match no line of a copied block into the block it was copied from. */
export function outsideCopies(pairs: Array<[number, number]>, copies: readonly CopiedRange[]): Array<[number, number]> {
  return pairs.filter(([i, j]) => !copies.some(([sb, ob]) => i >= sb[0] && i <= sb[1] && j >= ob[0] && j <= ob[1]));
}
