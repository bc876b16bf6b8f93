// A block shown as its head, a marker indented deeper and nothing else before the head's own closer
// (`location @app {` / `# ... unchanged` / `}`; `worker:` / `# ... unchanged ...` / the next key, where
// the update goes on with another marker left of it: a head without a closer over a deeper marker is
// as often "this block and what follows", or the block less what the instruction removes):
// the multi-line form of a collapsed block (collapsed-blocks.ts). The update says "this block stays,
// its body as it was". Read as lines, the head alone weighs one line, and a new sibling written just
// above it in the shape of that block (`location /imports/ {` with the same proxy lines) outweighs it:
// its copied lines anchor on the block's body and the block's own body is lost. So, before placement
// (and for the no-loss check, which reads the same expanded update), the marker is written out as the
// original body. Where several original blocks have that head, the one to expand is the one whose
// parent holds the update's other lines shown under the same parent (lines the original has once);
// no clear winner, nothing is expanded.
import { closesAt } from './brackets.js';
import { CLOSER_LINE, indentLength } from './lines.js';
import { markerLines } from './markers.js';

/** A head whose body is a block: braces, or a key / definition header ending in `:`. */
const BRACE_HEAD = /\{$/;
const COLON_HEAD = /:$/;

function nextSolid(lines: readonly string[], from: number): number {
  let y = from;
  while (y < lines.length && lines[y]!.trim() === '') y++;
  return y;
}

/** Rows of the original body under head j (exclusive end), or null when j heads no block of that kind. */
function originalBody(orig: readonly string[], j: number, brace: boolean): [number, number] | null {
  if (brace) {
    const c = closesAt(orig, j);
    if (c <= j + 1 || indentLength(orig[c]!) !== indentLength(orig[j]!) || !CLOSER_LINE.test(orig[c]!.trim())) return null;
    return [j + 1, c];
  }
  const level = indentLength(orig[j]!);
  let end = j + 1;
  for (let y = j + 1; y < orig.length; y++) {
    if (orig[y]!.trim() === '') continue;
    if (indentLength(orig[y]!) <= level) break;
    end = y + 1;
  }
  return end > j + 1 ? [j + 1, end] : null;
}

/** The nearest row above r with a smaller indentation (skipping blanks and, in the update, markers); -1 at the top. */
function parentRow(lines: readonly string[], r: number, skip: readonly boolean[] | null = null): number {
  const level = indentLength(lines[r]!);
  for (let y = r - 1; y >= 0; y--) {
    if (lines[y]!.trim() === '' || skip?.[y]) continue;
    if (indentLength(lines[y]!) < level) return y;
  }
  return -1;
}

/** End (exclusive) of the block a row heads: the rows after it deeper than it, and a closer at its level. */
function blockSpan(lines: readonly string[], p: number, skip: readonly boolean[] | null = null): number {
  const level = indentLength(lines[p]!);
  let y = p + 1;
  for (; y < lines.length; y++) {
    if (lines[y]!.trim() === '' || skip?.[y]) continue;
    if (indentLength(lines[y]!) <= level) break;
  }
  return y < lines.length && indentLength(lines[y]!) === level && CLOSER_LINE.test(lines[y]!.trim()) ? y + 1 : y;
}

/**
 * Which original head the shown head at update row h is, among candidates: the only one, or the one
 * whose parent block holds strictly the most of the lines the update shows under h's parent that the
 * original has exactly once (at least one). Null when that evidence does not single one out.
 */
function chooseHead(orig: readonly string[], counts: ReadonlyMap<string, number[]>, upd: readonly string[], markers: readonly boolean[], h: number, candidates: number[]): number | null {
  if (candidates.length === 1) return candidates[0]!;
  const up = parentRow(upd, h, markers);
  if (up < 0) return null;
  const upEnd = blockSpan(upd, up, markers);
  const rows: number[] = [];
  for (let x = up + 1; x < upEnd; x++) {
    if (markers[x] || upd[x]!.trim() === '') continue;
    const at = counts.get(upd[x]!.trim());
    if (at?.length === 1) rows.push(at[0]!);
  }
  let best = -1;
  let bestScore = 0;
  let tied = false;
  for (const j of candidates) {
    const p = parentRow(orig, j);
    if (p < 0) return null;
    const end = blockSpan(orig, p);
    const score = rows.filter((r) => r > p && r < end).length;
    if (score > bestScore) {
      best = j;
      bestScore = score;
      tied = false;
    } else if (score === bestScore) tied = true;
  }
  return bestScore > 0 && !tied ? best : null;
}

/** The update with each head shown over a marker that is its whole body written out with the original body. */
export function expandShownHeadBodies(update: string, code: string): string {
  const upd = update.split('\n');
  const orig = code.split('\n').map((l) => l.replace(/\r$/, ''));
  const plain = upd.map((l) => l.replace(/\r$/, ''));
  const markers = markerLines(plain, orig);
  if (!markers.includes(true)) return update;
  const counts = new Map<string, number[]>();
  orig.forEach((l, j) => {
    const t = l.trim();
    if (t === '') return;
    const at = counts.get(t);
    if (at) at.push(j);
    else counts.set(t, [j]);
  });
  const bodyFor = new Map<number, string[]>();
  for (let h = 0; h < plain.length; h++) {
    const head = plain[h]!.trim();
    if (head === '' || markers[h]) continue;
    const brace = BRACE_HEAD.test(head);
    if (!brace && !COLON_HEAD.test(head)) continue;
    const m = nextSolid(plain, h + 1);
    if (m >= plain.length || !markers[m] || indentLength(plain[m]!) <= indentLength(plain[h]!)) continue;
    // The marker must be the whole body: next the head's closer (braces), or a line no deeper than the head.
    const after = nextSolid(plain, m + 1);
    if (brace) {
      if (after >= plain.length || indentLength(plain[after]!) !== indentLength(plain[h]!) || !CLOSER_LINE.test(plain[after]!.trim())) continue;
    } else if (after < plain.length && indentLength(plain[after]!) > indentLength(plain[h]!)) continue;
    // Written at the original's indentation only: a re-indented snippet is left to the merge.
    const candidates = (counts.get(head) ?? []).filter((j) => indentLength(orig[j]!) === indentLength(plain[h]!));
    if (candidates.length === 0) continue;
    const j = chooseHead(orig, counts, plain, markers, h, candidates);
    if (j === null) continue;
    const body = originalBody(orig, j, brace);
    if (!body) continue;
    // A colon head's marker is its whole body only where another marker left of it follows.
    if (!brace && !(after < plain.length && markers[after])) continue;
    bodyFor.set(m, orig.slice(body[0], body[1]));
  }
  // The markers say the update is a snippet; writing out the only ones would make it read as the whole file.
  if (bodyFor.size === 0 || bodyFor.size === markers.filter(Boolean).length) return update;
  const out: string[] = [];
  upd.forEach((raw, x) => {
    const body = bodyFor.get(x);
    if (!body) {
      out.push(raw);
      return;
    }
    const eol = raw.endsWith('\r') ? '\r' : '';
    for (const l of body) out.push(l + eol);
  });
  return out.join('\n');
}
