// A block collapsed onto one line: `"dependencies": { ... },`, `router.get("/x", auth, (req, res) => { /* ... */ });`,
// `fn load(&self) -> Config { … }`. The update writes the block's opening line, a marker for its
// whole body and its closing line joined into one line, to say "this block stays (its body as it
// was)". Before placement such a line is expanded to the original block: the opening line as the
// update writes it (it may be edited: a new argument), then the original body and closing line.
// Otherwise the line is new text to the merge, and the next shown line anchors past the block.
import { CLOSING_BRACKET, closesAt, codeBracketDelta } from './brackets.js';
import { isMarkerElement } from './inline-elements.js';
import { pickCandidate, readOriginal } from './inline-markers.js';
import { indentLength, normalize, tokens } from './lines.js';

/** Indentation, the head up to its opening bracket, the marker, the closing bracket and what follows it. */
const COLLAPSED = /^(\s*)(\S.*?)\s*([{[(])\s*(\.\.\.|…|\/\*.*?\*\/|<!--.*?-->)\s*([}\])])(.*)$/;
/** Leading tokens an edited opening line must share with the original one (`router.delete("/x", auth,`). */
const MIN_SHARED_TOKENS = 5;

function sharedLead(a: string[], b: string[]): number {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
}

/**
 * The original closing line reads as the collapsed line's closing bracket and tail: the same text, or,
 * for a signature whose parameters the marker stands for (`async def create(...):`, `fun load(...) {`),
 * the same bracket and block opener with the original's return type between (`) -> Document:`).
 */
function closesAs(closer: string, tail: string): boolean {
  const o = normalize(closer);
  const t = normalize(tail);
  if (o === t) return true;
  const m = /^([)\]])\s*([:{])$/.exec(t);
  return m !== null && o.startsWith(m[1]!) && o.endsWith(m[2]!) && /^[)\]]\s*(?:->|:)\s*\S/.test(o);
}

/**
 * For a collapsed signature that opens its body (`fun load(...) {`): the row closing the parameter
 * list opened on row j, which reopens a block (`): Config {`) so that bracket counting runs on to the
 * body's end: the first row after j at j's indentation, every row between deeper. Undefined otherwise.
 */
function signatureCloser(orig: string[], j: number, tail: string): number | undefined {
  if (!/^[)\]]\s*\{$/.test(normalize(tail))) return undefined;
  const indent = indentLength(orig[j]!);
  for (let y = j + 1; y < orig.length; y++) {
    if (!orig[y]!.trim()) continue;
    if (indentLength(orig[y]!) > indent) continue;
    return indentLength(orig[y]!) === indent && /^[)\]]/.test(orig[y]!.trim()) ? y : undefined;
  }
  return undefined;
}

/**
 * The original block [opener, closer] a collapsed line stands for, or null: the original line with
 * the same head (or, when none has it, the one unique line sharing the most leading tokens, at least
 * MIN_SHARED_TOKENS) that opens the same bracket and is closed, at its own indentation, by a line
 * reading as the collapsed line's closing bracket and tail.
 */
function findBlock(orig: string[], head: string, open: string, tail: string, pick: (blocks: Array<[number, number]>) => [number, number] | null): [number, number] | null {
  const exact: Array<[number, number]> = [];
  const edited: Array<{ at: [number, number]; shared: number }> = [];
  const headTokens = tokens(normalize(head));
  for (let j = 0; j < orig.length; j++) {
    const t = orig[j]!.trimEnd();
    if (!t.endsWith(open)) continue;
    const oHead = normalize(t.slice(0, -1));
    const sameHead = oHead === normalize(head);
    const shared = sameHead ? 0 : sharedLead(tokens(oHead), headTokens);
    if (!sameHead && shared < MIN_SHARED_TOKENS) continue;
    const c = signatureCloser(orig, j, tail) ?? closesAt(orig, j, codeBracketDelta);
    if (c < 0 || c - j < 2 || !closesAs(orig[c]!, tail) || indentLength(orig[c]!) !== indentLength(orig[j]!)) continue;
    if (sameHead) exact.push([j, c]);
    else edited.push({ at: [j, c], shared });
  }
  if (exact.length > 0) return exact.length === 1 ? exact[0]! : pick(exact);
  edited.sort((a, b) => b.shared - a.shared);
  if (edited.length === 0 || (edited.length > 1 && edited[1]!.shared === edited[0]!.shared)) return null;
  return edited[0]!.at;
}

/** The update with every collapsed block expanded to the original block it stands for; unchanged when none is. */
export function expandCollapsedBlocks(update: string, code: string): string {
  if (!/(?:\.\.\.|…|\*\/|-->)\s*[}\])]/.test(update)) return update;
  const orig = code.split('\n').map((l) => l.replace(/\r$/, ''));
  const origSet = new Set(orig.map((l) => l.trim()));
  const upd = update.split('\n');
  let changed = false;
  const out: string[] = [];
  let anchors: ReturnType<typeof readOriginal> | undefined;
  for (const [i, raw] of upd.entries()) {
    const line = raw.replace(/\r$/, '');
    const m = COLLAPSED.exec(line);
    // Look-alike blocks (six routes' `asyncHandler(async (req, res) => {`): the one the update's nearest unique lines place it at.
    const pick = (blocks: Array<[number, number]>): [number, number] | null =>
      pickCandidate(blocks.map((b) => ({ j: b[0], b })), upd, i, (anchors ??= readOriginal(code)))?.b ?? null;
    const block = m && CLOSING_BRACKET[m[3]!] === m[5] && isMarkerElement(m[4]!) && !origSet.has(line.trim()) ? findBlock(orig, m[2]!, m[3]!, m[5]! + m[6]!, pick) : null;
    if (!block) {
      const hugged = origSet.has(line.trim()) ? null : huggedBlock(orig, line);
      if (hugged) {
        const eol = raw.endsWith('\r') ? '\r' : '';
        for (let y = hugged[0]; y <= hugged[1]; y++) out.push(orig[y]! + eol);
        changed = true;
      } else out.push(raw);
      continue;
    }
    const head = m![2]!;
    const [j, c] = block;
    // Written at another indentation than the block (a re-indented snippet): left to the merge.
    if (indentLength(line) !== indentLength(orig[j]!)) {
      out.push(raw);
      continue;
    }
    const eol = raw.endsWith('\r') ? '\r' : '';
    const opener = orig[j]!.trimEnd();
    const sameHead = normalize(opener.slice(0, -1)) === normalize(head);
    out.push((sameHead ? orig[j]! : `${m![1]}${head}${/\s*[{[(]$/.exec(opener)![0]}`) + eol);
    for (let y = j + 1; y <= c; y++) out.push(orig[y]! + eol);
    changed = true;
  }
  return changed ? out.join('\n') : update;
}

/** A collapsed line whose bracket follows its head and first elements: `{:http {:port 3000 ...}`, `:db { ... }`. */
const HUGGED = /^(\s*)(.*?)\s*(\.\.\.|…|\/\*.*?\*\/)\s*([}\])])(.*)$/;

/**
 * The original rows [j, c] a collapsed line stands for when the original writes the block's first
 * elements on its opening line and its closer after the last one (Lisp and EDN maps,
 * `{:port 3000` … `:max-body 1048576}`): the one original row that reads as the line's text up to
 * the marker, at the same indentation, whose bracket (`open`, the last one the line leaves open
 * before the marker) stays open past the row and closes on row c with `tail` after it. Null when
 * none or several are.
 */
function huggedBlock(orig: string[], line: string): [number, number] | null {
  const m = HUGGED.exec(line);
  if (!m || !isMarkerElement(m[3]!)) return null;
  const at = openBracketAt(m[2]!);
  // The marker closes the bracket left open before it, and the line shows more than that bracket.
  if (at < 0 || CLOSING_BRACKET[m[2]![at]!] !== m[4] || !/\S/.test(m[2]!.slice(0, at) + m[2]!.slice(at + 1))) return null;
  const shown = normalize(m[2]!);
  const found: Array<[number, number]> = [];
  for (let j = 0; j < orig.length; j++) {
    const t = orig[j]!;
    if (indentLength(t) !== indentLength(line) || !normalize(t).startsWith(shown)) continue;
    const o = openBracketAt(t);
    const c = o >= 0 && t[o] === m[2]![at] ? closingRow(orig, j, o, m[5]!) : -1;
    if (c > j) found.push([j, c]);
  }
  return found.length === 1 ? found[0]! : null;
}

/** Column of the last bracket of `t` still open at its end, or -1. */
function openBracketAt(t: string): number {
  const stack: number[] = [];
  scanCode(t, (c, k) => {
    if (c in CLOSING_BRACKET) stack.push(k);
    else stack.pop();
  });
  return stack.length > 0 ? stack[stack.length - 1]! : -1;
}

/** The row after j on which the bracket at column `at` of row j closes, with `tail` after it; -1 otherwise. */
function closingRow(orig: string[], j: number, at: number, tail: string): number {
  if (at < 0) return -1;
  let depth = 0;
  for (let y = j; y < orig.length; y++) {
    const t = orig[y]!;
    let closedAt = -1;
    scanCode(t, (c, k) => {
      if (closedAt >= 0 || (y === j && k < at)) return;
      depth += c in CLOSING_BRACKET ? 1 : -1;
      if (depth === 0) closedAt = k;
    });
    if (closedAt >= 0) return y > j && normalize(t.slice(closedAt + 1)) === normalize(tail) ? y : -1;
  }
  return -1;
}

/** Calls `visit` with each bracket of `t` and its column, outside double-quoted text. */
function scanCode(t: string, visit: (c: string, k: number) => void): void {
  for (let k = 0; k < t.length; k++) {
    const c = t[k]!;
    if (c === '"') {
      k++;
      while (k < t.length && t[k] !== '"') k += t[k] === '\\' ? 2 : 1;
    } else if (c === '{' || c === '(' || c === '[' || c === '}' || c === ')' || c === ']') visit(c, k);
  }
}
