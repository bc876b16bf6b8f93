// An original block kept beside a new block of the update that restates its whole body: a Terraform
// `variable "db_instance_type"` kept above the update's `variable "db_instance_class"` with the same
// description, type and default (a rename written with no marker), or two pytest tests kept beside
// the one parametrized test whose body is theirs with the values turned into its parameters. The
// update most likely replaced the old block; nothing licenses dropping it (its head is not shown),
// so it stays, and the merge says it guessed.
import { keptRows } from './line-diff.js';
import { firstToken, lineCounts, solidRow, splitLines, type Lines } from './lines.js';
import { blockEnd } from './definition-blocks.js';

/** Body lines (solid, not closers) an original block needs before a copy of them says anything. */
const MIN_BODY_LINES = 2;

/** A string or number literal, a name, or one other character. */
const TOKEN = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`|[A-Za-z_$][\w$]*|\d[\w.]*|\S/g;
const LITERAL = /^(?:["'`]|\d)/;
const NAME = /^[A-Za-z_$]/;

/** A head that opens only an argument list (`async def delete(` over its parameters): no body of its own. */
const OPENS_ARGUMENTS = /[([]$/;

/** The solid, non-closer lines of the block headed by row h. */
function body(l: Lines, h: number): number[] {
  const rows: number[] = [];
  const end = blockEnd(l, h);
  for (let y = h + 1; y < end; y++) if (!l.blank[y] && !l.weak[y]) rows.push(y);
  return rows;
}

/**
 * How `b` restates `a`: 'same', 'params' when `b` is `a` with some of its literal values replaced by
 * names `params` holds (a test's values made the parameters of its parametrized successor), else null.
 */
function restatesLine(a: string, b: string, params: ReadonlySet<string>): 'same' | 'params' | null {
  if (a === b) return 'same';
  const ta = a.match(TOKEN) ?? [];
  const tb = b.match(TOKEN) ?? [];
  if (ta.length !== tb.length) return null;
  for (let k = 0; k < ta.length; k++) {
    if (ta[k] === tb[k]) continue;
    if (!LITERAL.test(ta[k]!) || !NAME.test(tb[k]!) || !params.has(tb[k]!)) return null;
  }
  return 'params';
}

/** Every body line of the original block, in order, restated by a line of the new block's body: how ('params' if any line needed it), or null. */
function bodyRestated(o: Lines, oldRows: number[], u: Lines, fresh: Fresh): 'same' | 'params' | null {
  let at = 0;
  let how: 'same' | 'params' = 'same';
  for (const j of oldRows) {
    let r: 'same' | 'params' | null = null;
    while (at < fresh.rows.length && (r = restatesLine(o.norm[j]!, u.norm[fresh.rows[at]!]!, fresh.params)) === null) at++;
    if (r === null) return null;
    if (r === 'params') how = 'params';
    at++;
  }
  return how;
}

interface Fresh {
  /** The head's update row. */
  at: number;
  head: string;
  word: string;
  rows: number[];
  /** Names of the head (a function's parameters among them). */
  params: Set<string>;
}

/**
 * The blocks headed by original row h and update row g are followed by one line, not a closer: the
 * new block stands where the old one did (before the next definition), not appended after it.
 */
function sameNext(o: Lines, h: number, u: Lines, g: number): boolean {
  const y = solidRow(o, blockEnd(o, h) - 1, 1);
  const x = solidRow(u, blockEnd(u, g) - 1, 1);
  return y >= 0 && x >= 0 && !o.weak[y] && o.norm[y] === u.norm[x];
}

/**
 * Of the original blocks headed at `heads` (ascending) that the update's block at row g restates with
 * parameters, the run of adjacent ones ending where that block is followed by the same line; empty
 * unless it holds two or more.
 */
function foldedRun(o: Lines, heads: number[], u: Lines, g: number): number[] {
  const last = heads.findIndex((h) => sameNext(o, h, u, g));
  if (last < 1) return [];
  let first = last;
  while (first > 0 && solidRow(o, blockEnd(o, heads[first - 1]!) - 1, 1) === heads[first]) first--;
  return last - first >= 1 ? heads.slice(first, last + 1) : [];
}

/** The one name token two heads differ in (a rename of the head), or false. */
function renamedHead(a: string, b: string): boolean {
  const ta = a.match(TOKEN) ?? [];
  const tb = b.match(TOKEN) ?? [];
  if (ta.length !== tb.length) return false;
  let changed = 0;
  for (let k = 0; k < ta.length; k++) if (ta[k] !== tb[k]) changed++;
  return changed === 1;
}

/**
 * Original rows (0-based) heading blocks that `content` keeps beside a new block of the update
 * restating their whole body, where the update never shows their head; empty when there is none.
 */
export function supersededBlocks(code: string, update: string, content: string): number[] {
  const o = splitLines(code);
  const u = splitLines(update);
  const inOriginal = new Set(o.norm);
  const shown = new Set(u.norm);
  // New blocks of the update: a head the original lacks, over a body.
  const fresh: Fresh[] = [];
  for (let h = 0; h < u.text.length; h++) {
    if (u.blank[h] || u.weak[h] || inOriginal.has(u.norm[h]!) || OPENS_ARGUMENTS.test(u.norm[h]!)) continue;
    const rows = body(u, h);
    const params = new Set((u.norm[h]!.match(TOKEN) ?? []).filter((w) => NAME.test(w)));
    if (rows.length >= MIN_BODY_LINES) fresh.push({ at: h, head: u.norm[h]!, word: firstToken(u.norm[h]!), rows, params });
  }
  if (fresh.length === 0) return [];
  const out = splitLines(content);
  const inOutput = new Set(out.norm);
  const { at } = keptRows(o.norm, out.norm);
  const found: number[] = [];
  const folded = new Map<Fresh, number[]>();
  const renamed = new Map<Fresh, number[]>();
  const counts = lineCounts(o);
  for (let h = 0; h < o.text.length; h++) {
    if (o.blank[h] || o.weak[h] || shown.has(o.norm[h]!) || at[h]! < 0) continue;
    const word = firstToken(o.norm[h]!);
    const candidates = fresh.filter((f) => f.word === word && inOutput.has(f.head));
    if (candidates.length === 0) continue;
    const rows = body(o, h);
    if (rows.length < MIN_BODY_LINES) continue;
    for (const f of candidates) {
      const how = bodyRestated(o, rows, u, f);
      if (how === 'same' && renamedHead(o.norm[h]!, f.head) && sameNext(o, h, u, f.at)) renamed.set(f, [...(renamed.get(f) ?? []), h]);
      if (how === 'params') folded.set(f, [...(folded.get(f) ?? []), h]);
    }
  }
  // A rename restates one original block, holding a line of it that no other original line holds;
  // clones share their bodies, so a copy of one says nothing.
  for (const [f, heads] of renamed) if (heads.length === 1 && body(o, heads[0]!).some((j) => (counts.get(o.norm[j]!) ?? 0) === 1) && !folded.has(f)) found.push(heads[0]!);
  // Several blocks in a row that one parametrized block restates, the last of them followed by what follows it.
  for (const [f, heads] of folded) found.push(...foldedRun(o, heads, u, f.at));
  return [...new Set(found)].sort((a, b) => a - b);
}
