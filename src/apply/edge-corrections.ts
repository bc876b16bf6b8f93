// Corrections to a grown edge: a blank separator or annotation lines that belong to the new lines
// or to the original's next block are unpaired; an edited block header above the first match is taken in.
import { headsBlock, wholeBlocksAt } from './marker-blanks.js';
import type { Lines } from './lines.js';
import { CLOSER_LINE, editedVersion, firstToken, opensBlock } from './lines.js';
import { leadsDefinition } from './new-members.js';

/**
 * New lines, a blank line, then the anchor, after a marker: when the original's blank before the
 * anchor ends a block (the line above it is deeper than the anchor, or closes a block), the new
 * lines are a block of their own and go after that blank with the update's blank as their separator,
 * not glued to the end of the block above. `marked` is false at the update's first line with no
 * marker above: there only a new paragraph of the anchor's kind (`newFlatParagraph`) is read so.
 */
export function unpairSeparator(s: Lines, o: Lines, head: Array<[number, number]>, first: [number, number], marked: boolean): void {
  if (head.length === 0) return;
  const [i, j] = head[0]!;
  if (!s.blank[i] || !o.blank[j] || i === 0) return;
  // A separator of several blank lines (two between Python definitions) paired only at its end:
  // the whole run is the new lines' separator, the original's run stays above them.
  let paired = 1;
  while (paired < head.length && s.blank[head[paired]![0]] && o.blank[head[paired]![1]] && head[paired]![0] === i + paired) paired++;
  let newBlanks = i;
  while (newBlanks > 0 && s.blank[newBlanks - 1]) newBlanks--;
  if (newBlanks === 0 || (newBlanks < i && !blankRun(o, j, i - newBlanks + paired))) return;
  // Only new lines at the anchor's depth (a module constant): deeper ones are members of the block above.
  if ((paired > 1 || newBlanks < i) && s.indent[solidAbove(s, newBlanks)]! > s.indent[(head[paired] ?? first)[0]]!) {
    if (newBlanks < i) return;
    paired = 1;
  }
  const anchor = head[paired] ?? first;
  let above = j - 1;
  while (above >= 0 && o.blank[above]) above--;
  if (above < 0) return;
  const endsBlock = o.indent[above]! > o.indent[anchor[1]]! || /^(?:[)}\]]|end\b)/.test(o.norm[above]!);
  // New lines that start deeper than the anchor are more members of the block above (a new case's
  // `given Decoder[Refunded]` after `given Decoder[Purchased]`): they go before its blank, unless
  // that block parts its members with blank lines (compose services), where the blank parts them too.
  let lead = 0;
  while (lead < i && s.blank[lead]) lead++;
  if (lead < i && !s.weak[lead] && s.indent[lead]! > s.indent[anchor[0]]! && o.indent[above]! > o.indent[anchor[1]]! && !blankPartedAbove(o, above, o.indent[anchor[1]]!)) return;
  // New lines that are a whole block of their own (`export interface Options {` … `}` at the anchor's
  // depth) are a declaration like the one the blank parts from the line above: parted from it too.
  const lastNew = solidAbove(s, newBlanks);
  const wholeBlock = lead < lastNew && s.indent[lead] === s.indent[anchor[0]] && s.indent[lastNew] === s.indent[anchor[0]] && CLOSER_LINE.test(s.norm[lastNew]!);
  // At the update's first line with no marker above, only a new paragraph of the anchor's kind is
  // read so (the code above the snippet is kept as if a marker stood there).
  if (((endsBlock || wholeBlock) && marked) || newFlatParagraph(s, lead, o, above, anchor)) head.splice(0, paired);
}

/**
 * Blank-parted paragraphs with no closers (Dockerfile stages, `FROM … AS …` over its instructions):
 * new lines at the anchor's depth that start with the anchor's first word, where the paragraph above
 * starts with that word too but its last line does not, are a paragraph of the anchor's kind, not
 * more lines of the paragraph above (whose last line would share the word, as `import` lines do).
 */
function newFlatParagraph(s: Lines, lead: number, o: Lines, above: number, anchor: readonly [number, number]): boolean {
  const word = firstToken(s.norm[anchor[0]]!);
  if (!/^[A-Za-z_]/.test(word) || s.blank[lead] || s.indent[lead] !== s.indent[anchor[0]] || firstToken(s.norm[lead]!) !== word) return false;
  if (firstToken(o.norm[above]!) === word || o.indent[above] !== o.indent[anchor[1]]) return false;
  let top = above;
  while (top > 0 && !o.blank[top - 1]) top--;
  return top < above && o.indent[top] === o.indent[anchor[1]] && firstToken(o.norm[top]!) === word;
}

/** The last non-blank row before row i (i itself is blank), or 0. */
function solidAbove(s: Lines, i: number): number {
  let x = i - 1;
  while (x > 0 && s.blank[x]) x--;
  return Math.max(x, 0);
}

/** The original has `n` blank lines ending with row j's run of blank lines (j and those right above it). */
function blankRun(o: Lines, j: number, n: number): boolean {
  let y = j;
  while (y + 1 < o.text.length && o.blank[y + 1]) y++;
  let run = 0;
  for (let x = y; x >= 0 && o.blank[x]; x--) run++;
  return run >= n;
}

/**
 * Segment rows [a, b) are the heads of a new block around row b: solid lines each shallower than b,
 * the last one opening a block, no blank line among them.
 */
export function wrapHeadsAt(s: Lines, a: number, b: number): boolean {
  if (b <= a || !opensBlock(s.norm[b - 1]!)) return false;
  for (let i = a; i < b; i++) if (s.blank[i] || s.indent[i]! >= s.indent[b]!) return false;
  return true;
}

/** Going up from row y to the first line at `level` or shallower (its block's head), a blank line comes first. */
function blankPartedAbove(o: Lines, y: number, level: number): boolean {
  for (let x = y - 1; x >= 0; x--) {
    if (o.blank[x]) return true;
    if (o.indent[x]! <= level) return false;
  }
  return false;
}

/** A definition keyword opening a line: a definition written on one line is a block of its own. */
const ONE_LINE_DEFINITION = /^(?:(?:export|pub|public|private|protected|static|async)\s+)*(?:def|defp|defmacro|fn|func|fun|function|sub)\s+[A-Za-z_]/;

/**
 * Anchor, blank line, then a new block the segment ends with (no blank of its own before the
 * marker), where the original goes on with a sibling block after its blank: the blank is the new
 * block's separator from the anchor, and the original's stays between it and the sibling.
 */
export function unpairTailSeparator(s: Lines, o: Lines, tail: Array<[number, number]>, last: [number, number]): void {
  if (tail.length === 0) return;
  const [i, j] = tail[tail.length - 1]!;
  if (!s.blank[i] || !o.blank[j]) return;
  // Blank lines the segment ends with before its marker are layout there (end-blanks.ts): the new
  // lines end at its last non-blank line (an Elm `case` branch added last, `-- ... existing code ...` after).
  let n = s.text.length;
  while (n > i + 1 && s.blank[n - 1]) n--;
  if (i + 1 >= n || s.blank[i + 1]) return;
  let next = j + 1;
  while (next < o.text.length && o.blank[next]) next++;
  if (next >= o.text.length) return;
  const anchor = tail[tail.length - 2] ?? last;
  const shift = o.indent[anchor[1]]! - s.indent[anchor[0]]!;
  // The new lines are one or more whole blocks at the sibling's level (marker-blanks.ts).
  const level = o.indent[next]! - shift;
  // Or blocks deeper than what follows: new members that end the enclosing block (a method added
  // last in a Python class, the next class after the blank lines).
  const closesEnclosing = s.indent[i + 1]! > level && wholeBlocksAt(s, i + 1, n - 1, s.indent[i + 1]!);
  if (!closesEnclosing && !wholeBlocksAt(s, i + 1, n - 1, level)) return;
  // Closed by a closing line, the new lines are a block; else the sibling must head one (a rule, a heading).
  // Or the new lines open with a definition (`def f(x), do: …`, `def f(x): return …` written on one line).
  // Members ending the enclosing block are parted from what follows by its own blank lines (`-- VIEW` after an Elm `case`).
  if (!closesEnclosing && !(s.weak[n - 1] && /^(?:[)}\]]|end\b)/.test(s.norm[n - 1]!)) && !headsBlock(o, next) && !ONE_LINE_DEFINITION.test(s.norm[i + 1]!)) return;
  tail.pop();
}

/**
 * A segment whose matches end on annotation lines (`@dataclass`, `#[derive(…)]`, `[Fact]`, `@impl true`) whose original
 * goes on with a header the segment does not match: they belong to that header (kept with it),
 * while the segment's copies head its own new definition.
 */
export function unpairAnnotations(s: Lines, o: Lines, tail: Array<[number, number]>): void {
  while (tail.length > 1) {
    const [i, j] = tail[tail.length - 1]!;
    if (s.blank[i] || !leadsDefinition(s.norm[i]!)) return;
    let y = j + 1;
    while (y < o.text.length && o.blank[y]) y++;
    let x = i + 1;
    while (x < s.text.length && s.blank[x]) x++;
    if (y >= o.text.length || x >= s.text.length || s.norm[x] === o.norm[y]) return;
    tail.pop();
  }
}

/** Original lines scanned above a segment's first match for the block header it rewrote. */
const MAX_HEADER_REACH = 40;

/**
 * A segment that opens, right after its marker, with an edited block header (`def fetch_page(url,
 * retries=3):`) and then new lines before its first match rewrites that block from its header: the
 * original header above the match, with only deeper lines between them, is where the segment starts,
 * and those lines are what its new lines replace (the old header is not kept beside the new one).
 */
export function extendToEditedHeader(s: Lines, o: Lines, head: Array<[number, number]>, first: [number, number], lo: number): void {
  const top = head[0] ?? first;
  let f = 0;
  while (f < top[0] && s.blank[f]) f++;
  if (f >= top[0] || s.weak[f] || !opensBlock(s.norm[f]!)) return;
  for (let x = f + 1; x < top[0]; x++) if (!s.blank[x] && s.indent[x]! <= s.indent[f]!) return;
  // The lines between the header and the match all sit inside the header's block.
  let inner = o.indent[top[1]]!;
  for (let y = top[1] - 1; y >= lo && top[1] - y <= MAX_HEADER_REACH && inner > 0; y--) {
    if (o.blank[y]) continue;
    if (o.indent[y]! < inner && !o.weak[y] && opensBlock(o.norm[y]!) && editedVersion(o.norm[y]!, s.norm[f]!)) {
      head.unshift([f, y]);
      return;
    }
    inner = Math.min(inner, o.indent[y]!);
  }
}
