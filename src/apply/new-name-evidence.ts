// Evidence that an update line naming something new is a new sibling, not an original line renamed
// in place. A copy-paste sibling (a handler, a `case`, a test) is written as one of the original's
// blocks with its name changed, so line by line it reads as that block renamed. What tells the two
// apart is how the update uses the new name elsewhere: a rename shows original lines carrying the new
// name where the old one stood (callers, registrations), while a new sibling brings the new name in
// on new lines (`group.MapPut(…, Complete)` beside the kept `group.MapDelete(…, Delete)`, a new
// `const TODO_RENAMED = …` beside `TODO_REMOVED`'s) and leaves the old name's other uses alone.
import { assignmentKey, sharedEnds, soleTokenChange, solidRow, tokens, type Lines } from './lines.js';

/** Each segment's lines → the segments of the update it was cut from (registered by splitUpdate). */
const updateOf = new WeakMap<Lines, ReadonlyArray<{ lines: Lines }>>();

/** Remembers which update each segment belongs to, so that a judgement on one segment line can read the others. */
export function noteUpdateSegments(segments: ReadonlyArray<{ lines: Lines }>): void {
  for (const seg of segments) updateOf.set(seg.lines, segments);
}

/** The token `norm` puts where `old` had another (one name changed, at each of its places), or null. */
export function renamedToken(old: string, norm: string): { from: string; to: string } | null {
  const a = tokens(old);
  const b = tokens(norm);
  const change = soleTokenChange(a, b);
  if (!change) return null;
  const from = a[change.at]!;
  const to = b[change.at]!;
  return NAME.test(from) && NAME.test(to) ? { from, to } : null;
}

/**
 * Like `renamedToken`, but the one change may be written in several forms (`OrderShipped` →
 * `OrderCancelled` beside `OrderShippedHandler` → `OrderCancelledHandler` and `"orders.shipped"` →
 * `"orders.cancelled"`): every changed token differs from its original by the same part, up to case.
 * The change of the first such token is returned. A line copied for a new variant is written so.
 */
function renamedForms(old: string, norm: string): NameChange | null {
  const sole = renamedToken(old, norm);
  if (sole) return sole;
  const a = tokens(old);
  const b = tokens(norm);
  if (a.length !== b.length) return null;
  let core: [string, string] | null = null;
  let first: { from: string; to: string } | null = null;
  for (let k = 0; k < a.length; k++) {
    if (a[k] === b[k]) continue;
    const c = changedPart(a[k]!, b[k]!);
    if (c === null || (core !== null && (c[0].toLowerCase() !== core[0].toLowerCase() || c[1].toLowerCase() !== core[1].toLowerCase()))) return null;
    core ??= c;
    first ??= { from: a[k]!, to: b[k]! };
  }
  return first && core && NAME.test(first.from) && NAME.test(first.to) ? { ...first, core } : null;
}

/** What tells `x` from `y` once their common start and end are cut off (`OrderShipped`, `OrderCancelled` → `Shipp`, `Cancell`), or null when either part is shorter than 2. */
function changedPart(x: string, y: string): [string, string] | null {
  const [p, q] = sharedEnds(x, y);
  const cx = x.slice(p, x.length - q);
  const cy = y.slice(p, y.length - q);
  return cx.length < 2 || cy.length < 2 ? null : [cx, cy];
}

/** One name changed: `from` → `to`, and where it is written in several forms, the part that changed in each (`core`: old, new). */
interface NameChange {
  from: string;
  to: string;
  core?: [string, string];
}

/** The cases a changed part is written in: as it is, lower, upper, capitalised. */
function caseForms(x: string): string[] {
  return [x, x.toLowerCase(), x.toUpperCase(), x[0]!.toUpperCase() + x.slice(1).toLowerCase()];
}

/**
 * Reads lines for the new name of `change` and puts the old one back: the whole token `to` → `from`,
 * or for a change in several forms each case form of the new part → the old part in the same case.
 */
function putBack(change: NameChange): { names: (norm: string) => boolean; back: (norm: string) => string } {
  if (!change.core) {
    const word = new RegExp(`(?<![\\w$])${change.to.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
    return { names: (norm) => norm.includes(change.to) && tokens(norm).includes(change.to), back: (norm) => norm.replace(word, change.from) };
  }
  const [cf, ct] = change.core;
  const olds = caseForms(cf);
  const news = caseForms(ct);
  const map = new Map<string, string>();
  news.forEach((n, k) => { if (!map.has(n)) map.set(n, olds[k]!); });
  const any = new RegExp([...map.keys()].map((n) => n.replace(/[$]/g, '\\$')).join('|'), 'g');
  return { names: (norm) => { any.lastIndex = 0; return any.test(norm); }, back: (norm) => norm.replace(any, (m) => map.get(m)!) };
}

/** A name long enough to be one (a literal or a one-letter local says nothing). */
const NAME = /^[A-Za-z_$][\w$]{2,}$/;

/** Per original text: its non-blank normalised lines (text → rows), and the names that occur on them (token → rows). */
const cache = new WeakMap<Lines, { lines: Map<string, number[]>; uses: Map<string, number[]> }>();

function originalIndex(orig: Lines): { lines: Map<string, number[]>; uses: Map<string, number[]> } {
  let c = cache.get(orig);
  if (!c) {
    c = { lines: new Map(), uses: new Map() };
    for (let y = 0; y < orig.text.length; y++) {
      if (orig.blank[y]) continue;
      const at = c.lines.get(orig.norm[y]!);
      if (at) at.push(y);
      else c.lines.set(orig.norm[y]!, [y]);
      for (const t of new Set(tokens(orig.norm[y]!))) {
        const rows = c.uses.get(t);
        if (rows) rows.push(y);
        else c.uses.set(t, [y]);
      }
    }
    cache.set(orig, c);
  }
  return c;
}

/** Rows x of `l` (x ≠ skip) that name the new name of `change`, each with its line with the old name put back. */
function linesNaming(l: Lines, change: NameChange, skip: number): Array<{ x: number; back: string }> {
  const out: Array<{ x: number; back: string }> = [];
  const { names, back } = putBack(change);
  for (let x = 0; x < l.text.length; x++) {
    if (x === skip || l.blank[x] || !names(l.norm[x]!)) continue;
    out.push({ x, back: back(l.norm[x]!) });
  }
  return out;
}

/** Per update: the normalised lines its segments show. */
const shownCache = new WeakMap<ReadonlyArray<{ lines: Lines }>, Set<string>>();

function shownLines(segments: ReadonlyArray<{ lines: Lines }>): Set<string> {
  let set = shownCache.get(segments);
  if (!set) {
    set = new Set();
    for (const seg of segments) for (let x = 0; x < seg.lines.text.length; x++) if (!seg.lines.blank[x]) set.add(seg.lines.norm[x]!);
    shownCache.set(segments, set);
  }
  return set;
}

/**
 * Update row x (naming `to`, an original line with `from` put back) sits right next to another such
 * line whose original is not that line's neighbour in the original: two lines copied for the new name
 * from places apart and written together (`given Decoder[Refunded]` over `given Encoder[Refunded]`,
 * copied from `…Decoder[Purchased]` and `…Encoder[Purchased]` three lines apart). A rename carried
 * through leaves each line where its original stood, so adjacent renamed lines have adjacent originals.
 */
export function copiedApart(l: Lines, x: number, orig: Lines, change: NameChange): boolean {
  const { names, back } = putBack(change);
  const { lines } = originalIndex(orig);
  const rows = (y: number): number[] => lines.get(back(l.norm[y]!)) ?? [];
  const mine = rows(x);
  for (const dir of [-1, 1] as const) {
    const n = solidRow(l, x, dir);
    if (n < 0 || !names(l.norm[n]!)) continue;
    const theirs = rows(n);
    if (theirs.length === 0) continue;
    if (!mine.some((y) => { const m = solidRow(orig, y, dir); return m >= 0 && theirs.includes(m); })) return true;
  }
  return false;
}

/**
 * Update row i of segment lines `s` changes one name of original row j (`from` → `to`), and the
 * update brings `to` in as a new name beside `from`: some other update line names `to` and is no
 * original line with `from` put back (new code using the new name), no update line is such an
 * original line standing where it stood (the rename carried through), and `from` is named on original lines other than j (the
 * old name has uses that the new one does not take over). Then row i is a new sibling of row j.
 */
export function newNameBesideOld(s: Lines, i: number, orig: Lines, j: number): boolean {
  const segments = updateOf.get(s);
  if (!segments) return false;
  const change = renamedForms(orig.norm[j]!, s.norm[i]!);
  if (!change) return false;
  const { from, to } = change;
  const { lines, uses } = originalIndex(orig);
  if (uses.has(to)) return false;
  if (!(uses.get(from) ?? []).some((y) => y !== j)) return false;
  // The same binding given the new value (`const key = …${safeName}` for `…${filename}`) where the
  // update derives the new name from the old (`const safeName = filename.replace(…)`): a switch to the
  // cleaned value; kept beside its edit the old binding would be declared twice.
  if (sameBinding(orig.norm[j]!, s.norm[i]!, change) && segments.some((seg) => derivedIn(seg.lines, change))) return false;
  const shown = shownLines(segments);
  let fresh = 0;
  let carried = false;
  for (const seg of segments) {
    for (const { x, back } of linesNaming(seg.lines, change, seg.lines === s ? i : -1)) {
      if (!lines.has(back)) fresh++;
      // An original line with `from` put back is the rename carried through, unless the update also
      // shows that original as it is (a copy beside it: both names live on) or the line is one of
      // several copied together from places apart (`copiedApart`): a new variant threaded through.
      // Neither is evidence of a new name by itself: one caller switched beside a new import
      // written under the old one is a switch.
      else if (!shown.has(back) && !copiedApart(seg.lines, x, orig, change)) carried = true;
    }
  }
  return !carried && fresh > 0;
}

/** The bound name of a `key = value` line (`const safeName`, `safe_name`, `x :=` → its last word), or null. */
function boundName(norm: string): string | null {
  const key = assignmentKey(norm);
  return key === null ? null : key.split(/\s+/).pop()!;
}

/** Both lines bind the same name, which is neither side of the change. */
function sameBinding(old: string, norm: string, change: NameChange): boolean {
  const a = assignmentKey(old);
  return a !== null && a === assignmentKey(norm) && !tokens(a).includes(change.from) && !tokens(a).includes(change.to);
}

/** Some line of `l` binds the new name from a value naming the old one (`const safeName = filename.trim()`). */
function derivedIn(l: Lines, change: NameChange): boolean {
  for (let x = 0; x < l.text.length; x++) {
    const norm = l.norm[x]!;
    if (l.blank[x] || boundName(norm) !== change.to) continue;
    const key = assignmentKey(norm)!;
    if (tokens(norm.slice(norm.indexOf(key) + key.length)).includes(change.from)) return true;
  }
  return false;
}

/** Per segment lines: head row → whether it is a new sibling (see `newSiblingHead`). */
const siblingHeads = new WeakMap<Lines, Map<number, boolean>>();

/**
 * Segment row h heads a new sibling of some original line: one original line reads as h with one
 * name changed, and the update brings the new name in beside the old one (`newNameBesideOld`).
 */
export function newSiblingHead(s: Lines, h: number, orig: Lines): boolean {
  let memo = siblingHeads.get(s);
  if (!memo) siblingHeads.set(s, (memo = new Map()));
  let found = memo.get(h);
  if (found === undefined) {
    found = false;
    if (updateOf.has(s)) {
      for (let y = 0; y < orig.text.length && !found; y++) if (!orig.blank[y] && renamedForms(orig.norm[y]!, s.norm[h]!) && newNameBesideOld(s, h, orig, y)) found = true;
    }
    memo.set(h, found);
  }
  return found;
}

/**
 * Update line `r` names a new name (one no original line has) where original row j has another
 * (`given Decoder[Refunded] = deriveDecoder` against `given Encoder[Purchased] = deriveEncoder`),
 * and with that name put back it is another original line (`given Decoder[Purchased] = …`): r is a
 * copy of that line for the new name (a new enum case, message or event threaded through the file),
 * or that line renamed; in neither case j's edit.
 */
export function copiesOtherLine(orig: Lines, j: number, r: string): boolean {
  const { lines, uses } = originalIndex(orig);
  const oj = orig.norm[j]!;
  const tr = new Set(tokens(r));
  const olds = [...new Set(tokens(oj))].filter((t) => NAME.test(t) && !tr.has(t));
  if (olds.length === 0) return false;
  for (const to of tr) {
    if (!NAME.test(to) || uses.has(to)) continue;
    for (const from of olds) {
      const back = putBack({ from, to }).back(r);
      if (back !== oj && lines.has(back)) return true;
    }
  }
  return false;
}
