// Evidence that an update line renames an original line rather than standing beside it as a new
// sibling, for the no-loss check (loss.ts) where the update does not show both of the line's
// neighbours (a rename at a marker's edge):
// - `renamedThroughout`: the renamed part of the name is renamed on other original lines the update
//   shows in their places (`qty` → `quantity` in `getQty()` → `getQuantity()`, `private int
//   quantity;`, `this.quantity = quantity;`), and the old part occurs on none of its lines;
// - `keyRenamedKeepingValue`: a `key: value` line whose key changed while its value, one of
//   substance that no other original line holds, stayed (`colour: "dark red",` → `color: "dark red",`).
//   A value such as `true` or `0` says nothing: a new setting next to an old one shares it easily.
import { ownerRow, sameOwner } from './line-identity.js';
import { assignmentKey, perText, runAt, sharedEnds, soleTokenChange, tokens, type Lines } from './lines.js';
import { removalEnd } from './removals.js';

/** Parts of a name: camelCase humps and snake/kebab words, lower-cased (`getQty` → get, qty). */
function nameParts(token: string): string[] {
  return token
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_$-]+/)
    .filter((p) => p.length > 0)
    .map((p) => p.toLowerCase());
}

/**
 * A rename between two lines that differ in one token: `from` → `to`, each a run of name parts; with
 * `token`, the whole token is renamed (read by tokens, so other names holding the old parts, such as
 * `runner_artifact_writer` beside `runner`, do not keep it).
 */
interface PartRename {
  from: string[];
  to: string[];
  token?: { from: string; to: string };
}

/**
 * The renames two lines that differ in one token can stand for, narrowest first: the first and last
 * differing parts of that token (`getQty` / `getQuantity` → `qty` / `quantity`), when one part
 * replaces one part, then the whole token (`notify_owner` → `notify_billing_contacts`, `writeError`
 * → `respondWithProblem`: parts added or dropped rename the name as a whole; `formatPrice` →
 * `formatMoney` beside an `it.price`, where the part alone is a word other lines use; `"runner"` →
 * `"deployer"` beside a `"runner_artifact_writer"` left as it was).
 */
function renamedParts(old: string, norm: string): PartRename[] {
  const a = tokens(old);
  const b = tokens(norm);
  // One name renamed at each of its places on the line (`tmp = max(tmp, x)`) is one rename.
  const k = soleTokenChange(a, b)?.at ?? -1;
  if (k < 0 || !/^[A-Za-z_$]/.test(a[k]!) || !/^[A-Za-z_$]/.test(b[k]!)) return [];
  const pa = nameParts(a[k]!);
  const pb = nameParts(b[k]!);
  const found: PartRename[] = [];
  const [pre, suf] = sharedEnds(pa, pb);
  const from = pa.slice(pre, pa.length - suf);
  const to = pb.slice(pre, pb.length - suf);
  if (from.length === 1 && to.length === 1 && from[0]!.length >= 2) found.push({ from, to });
  // The whole name, also where the part alone is a word other lines use (`formatPrice` → `formatMoney`
  // beside `it.price`); a short one (`id`, `x`) is too common to carry a rename.
  if (a[k]!.length >= 4 && b[k]!.length >= 4) found.push({ from: pa, to: pb, token: { from: a[k]!, to: b[k]! } });
  return found;
}

/** A line's parts key (see `partsKey`) with the rename read back: every `to` as `from`. */
function readBack(norm: string, rename: PartRename): string[] {
  const { token } = rename;
  if (token) return tokens(norm).flatMap((t) => nameParts(t === token.to ? token.from : t));
  return renamedBack(partsKey(norm), rename);
}

/** The line holds the rename's old name (old: true) or its new one (old: false). */
function holds(norm: string, rename: PartRename, old: boolean): boolean {
  const { token } = rename;
  if (token) return tokens(norm).includes(old ? token.from : token.to);
  return runAt(partsKey(norm), old ? rename.from : rename.to) >= 0;
}

/** `ps` with every run `to` read back as `from`. */
function renamedBack(ps: readonly string[], { from, to }: PartRename): string[] {
  const out: string[] = [];
  for (let x = 0; x < ps.length; ) {
    if (runAt(ps, to, x) === x) {
      out.push(...from);
      x += to.length;
    } else out.push(ps[x++]!);
  }
  return out;
}

/** A line as the sequence of its tokens' name parts (`this.qty = qty;` → `this qty = qty ;`). */
function partsKey(norm: string): string[] {
  return tokens(norm).flatMap(nameParts);
}

/** Per original text: parts key → rows (see `partsKey`). */
const rowsByParts = perText((orig: Lines) => {
  const m = new Map<string, number[]>();
  for (let y = 0; y < orig.text.length; y++) {
    if (orig.blank[y]) continue;
    const k = partsKey(orig.norm[y]!).join(' ');
    const list = m.get(k);
    if (list) list.push(y);
    else m.set(k, [y]);
  }
  return m;
});

/** The nearest non-blank, non-closer line from x in direction dir, as a parts key; undefined past the edge. */
function neighbourParts(l: Lines, x: number, dir: 1 | -1, rename?: PartRename): string | undefined {
  for (let y = x + dir; y >= 0 && y < l.text.length; y += dir) {
    if (l.blank[y] || l.weak[y]) continue;
    return (rename ? readBack(l.norm[y]!, rename) : partsKey(l.norm[y]!)).join(' ');
  }
  return undefined;
}

/**
 * `norm` renames one name part of `old` (`getQty()` → `getQuantity()`: `qty` → `quantity`), and the
 * update carries that rename through other original lines where they stand: at least two other
 * update lines are original lines with the part renamed, each between the original's neighbours
 * (read with the same rename; a segment's edge stands for any neighbour), and no update line keeps
 * the old part. New code that merely uses a new name (a new `remaining` call beside `check`) shows
 * no original line renamed in its place.
 */
export function renamedThroughout(segments: ReadonlyArray<{ lines: Lines }>, orig: Lines, old: string, norm: string, outside?: [number, number]): boolean {
  return renamedParts(old, norm).some((rename) => carriedThrough(segments, orig, norm, rename, outside));
}

/**
 * Original head j renamed to `norm` with its uses: the rename is carried through at least two original
 * lines outside j's own block (callers, references), so a block whose body the update rewrites is
 * still j's. A section copied under a new name renames only lines inside the copy.
 */
export function renamedWithUses(segments: ReadonlyArray<{ lines: Lines }>, orig: Lines, j: number, norm: string): boolean {
  return renamedThroughout(segments, orig, orig.norm[j]!, norm, [j, removalEnd(orig, j)]);
}

/**
 * At least two update lines other than `norm` are original lines renamed by `rename` in their places
 * (outside the rows [lo, hi) of `outside`, when given), and none keeps the old parts.
 */
function carriedThrough(segments: ReadonlyArray<{ lines: Lines }>, orig: Lines, norm: string, rename: PartRename, outside?: [number, number]): boolean {
  const rows = rowsByParts(orig);
  let inPlace = 0;
  for (const seg of segments) {
    const l = seg.lines;
    for (let i = 0; i < l.text.length; i++) {
      const n = l.norm[i]!;
      if (l.blank[i] || n === norm) continue;
      const lower = n.toLowerCase();
      if (!lower.includes(rename.to[0]!) && !lower.includes(rename.from[0]!)) continue;
      if (holds(n, rename, true)) return false;
      if (!holds(n, rename, false)) continue;
      const mapped = readBack(n, rename).join(' ');
      const above = neighbourParts(l, i, -1, rename);
      const below = neighbourParts(l, i, 1, rename);
      const fits = (rows.get(mapped) ?? []).some((y) => (!outside || y < outside[0] || y >= outside[1]) && (above === undefined || above === neighbourParts(orig, y, -1)) && (below === undefined || below === neighbourParts(orig, y, 1)));
      if (fits) inPlace++;
    }
  }
  return inPlace >= 2;
}

/** A value that identifies its line: a string or a name of 3+ characters, not a bare literal. */
const SUBSTANCE = /["'`][^"'`]{2,}|[A-Za-z_$][\w$.]{2,}/;
const BARE = /^(?:true|false|null|nil|none|undefined|yes|no|on|off)$/i;

/** The text after a line's key (`: "dark red",`), or null when the line has no key. */
function valueOf(norm: string): string | null {
  const key = assignmentKey(norm);
  return key === null ? null : norm.slice(norm.indexOf(key) + key.length).trim();
}

/**
 * Original line j's key renamed in `norm` with its value kept, the value of substance and held by
 * no other original line: the same setting renamed, not a new one beside it.
 */
export function keyRenamedKeepingValue(orig: Lines, j: number, norm: string): boolean {
  const value = valueOf(orig.norm[j]!);
  if (value === null || value !== valueOf(norm)) return false;
  const bare = value.replace(/^[:=]\s*/, '').replace(/[,;]$/, '').trim();
  if (BARE.test(bare) || !SUBSTANCE.test(bare)) return false;
  for (let y = 0; y < orig.text.length; y++) if (y !== j && !orig.blank[y] && orig.norm[y]!.endsWith(value) && valueOf(orig.norm[y]!) === value) return false;
  return true;
}

/**
 * The header of update row i renames the header of original row j throughout the update (see
 * `renamedThroughout`), and the headers above them are the same: the block of `getQuantity()` is the
 * block of `getQty()` when the field is renamed everywhere the update shows.
 */
export function ownerRenamedThroughout(segments: ReadonlyArray<{ lines: Lines }>, s: Lines, i: number, orig: Lines, j: number): boolean {
  const hs = ownerRow(s, i);
  const ho = ownerRow(orig, j);
  return hs >= 0 && ho >= 0 && renamedThroughout(segments, orig, orig.norm[ho]!, s.norm[hs]!) && sameOwner(s, hs, orig, ho);
}
