// What a line names: the definition, test, route, block key or element it heads. Two lines that
// name different things are not one line edited (`fn get_note(` → `fn delete_note(`, `test:` →
// `lint:`, `<label for="timezone">` → `<label for="phone">`): the new one is new code beside the
// old, unless the update shows it as a rename in place, its body or its neighbours going on as the
// original's do. Used by rule (a) of the no-loss check (loss.ts) and by the merge's edge growth
// (edge-growth.ts), so the merge does not take a new definition for an edit of the next one.
import { newNameBesideOld } from './new-name-evidence.js';
import { closesAt } from './brackets.js';
import { clauseIdentity, extraIdentity, rowIdentity } from './block-names.js';
import { equationHeadName } from './equation-heads.js';
import { letFunctionName } from './let-definitions.js';
import { namedItemsDiffer } from './sibling-items.js';
import { renamedBlockEvidenced, sharedLines } from './look-alike-blocks.js';
import { strongRow, type Lines } from './lines.js';
import { sameNeighbour } from './renamed-neighbours.js';
import { headDepth, isFlatSection } from './flat-sections.js';
import { soleMemberRewritten } from './sole-member.js';

export const MODIFIERS = String.raw`(?:(?:export|default|pub(?:\([^)]*\))?|public|private|protected|internal|static|async|final|abstract|virtual|inline|override|local|unsafe|const|extern|open|sealed|data|suspend|partial)\s+)*`;
const DEFINITION = new RegExp(String.raw`^${MODIFIERS}(?:def|function\*?|func|fun|fn|class|struct|enum|interface|trait|module|macro|object|record|union|namespace|sub|proc|impl(?:<[^>]*>)?)\s+(?:\([^)]*\)\s*)?([\w$]+(?:(?:\.|::?)[\w$]+)*(?:\s+for\s+[\w$]+)?)`);
const GO_METHOD = /^func\s+\(\s*(?:[\w$]+\s+)?\*?\s*([\w$]+)(?:\[[^\]]*\])?[^)]*\)\s*([\w$]+)/;
const SQL = /^CREATE\s+(?:UNIQUE\s+)?(?:OR\s+REPLACE\s+)?(TABLE|VIEW|INDEX|FUNCTION|PROCEDURE|TRIGGER|TYPE|SEQUENCE)(?:\s+IF\s+NOT\s+EXISTS)?\s+([\w$."]+)/i;
const HCL = /^(resource|data|module|variable|output|provider)\s+"([^"]+)"(?:\s+"([^"]+)")?/;
const TEST_MACRO = /^((?:TYPED_)?TEST(?:_[FP])?)\s*\(([^)]*)\)/;
const TEST_CALL = /^(describe|it|test|context|specify)(?:\.\w+)?\s*\(\s*(['"`])(.*?)\2/;
const ROUTE = /^@?[\w$.]*\.(get|post|put|patch|delete|head|options|all|route)\s*\(\s*(['"`])(.*?)\2/;
const MAPPING = /^@(Get|Post|Put|Patch|Delete|Request)Mapping\s*\(\s*(?:(?:value|path)\s*=\s*)?"(.*?)"/;
const BLOCK_KEY = /^(?:-\s+)?([\w.-]+|"[^"]*"|'[^']*'):$/;
/** A TOML/INI section header; a comma makes it a list literal (`[req.user.id, title]`), not a section. */
const SECTION = /^\[\[?([^\],]+)\]\]?$/;
/** Markdown headings from level 2 (a lone `#` starts comments in too many languages). */
const HEADING = /^(#{2,6})\s+(\S.*)$/;
const ELEMENT = /^<([\w-]+)\b/;
/** Attributes that name an element; MSBuild items (`<PackageReference Include=…>`) are named by `Include`. */
const ELEMENT_NAME = [/\bid\s*=\s*["']([^"']*)["']/, /\bfor\s*=\s*["']([^"']*)["']/, /\bname\s*=\s*["']([^"']*)["']/, /\bInclude\s*=\s*["']([^"']*)["']/];
/** Block keys that are keywords of a language (`else:`, `public:`), not names. */
const KEYWORD_KEYS = new Set(['else', 'try', 'finally', 'except', 'default', 'public', 'private', 'protected', 'internal', 'do', 'then', 'begin', 'rescue', 'ensure']);

/** The name a normalised line heads, with its kind, or null when it names nothing. */
export function lineIdentity(norm: string): string | null {
  const clause = clauseIdentity(norm);
  if (clause !== null) return clause;
  // A Go method is named with its receiver's type: `(h *CartHandler) Serve` is not `(h *OrderHandler) Serve`.
  let m = GO_METHOD.exec(norm);
  if (m) return `def ${m[1]}.${m[2]}`;
  if ((m = DEFINITION.exec(norm))) return `def ${m[1]}`;
  if ((m = SQL.exec(norm))) return `sql ${m[1]!.toUpperCase()} ${m[2]}`;
  if ((m = HCL.exec(norm))) return `hcl ${m[1]} ${m[2]} ${m[3] ?? ''}`;
  if ((m = TEST_MACRO.exec(norm))) return `test ${m[1]}(${m[2]!.replace(/\s+/g, '')})`;
  if ((m = TEST_CALL.exec(norm))) return `test ${m[1]} ${m[3]}`;
  if ((m = ROUTE.exec(norm))) return `route ${m[1]} ${m[3]}`;
  if ((m = MAPPING.exec(norm))) return `route ${m[1]!.toLowerCase()} ${m[2]}`;
  if ((m = BLOCK_KEY.exec(norm))) return KEYWORD_KEYS.has(m[1]!) ? null : `key ${m[1]}`;
  if ((m = SECTION.exec(norm))) return `section ${m[1]}`;
  if ((m = HEADING.exec(norm))) return `heading ${m[1]!.length} ${m[2]}`;
  if ((m = ELEMENT.exec(norm))) {
    for (const re of ELEMENT_NAME) {
      const a = re.exec(norm);
      if (a) return `element ${m[1]} ${a[1]}`;
    }
  }
  const equation = equationHeadName(norm) ?? letFunctionName(norm);
  return equation === null ? extraIdentity(norm) : `def ${equation}`;
}

/** The row of each identity that exactly one line of `l` heads (identities heading several lines are left out). */
export function soleIdentityRows(l: Lines): Map<string, number> {
  const rows = new Map<string, number>();
  const repeated = new Set<string>();
  for (let j = 0; j < l.text.length; j++) {
    const id = l.blank[j] ? null : lineIdentity(l.norm[j]!);
    if (id === null || repeated.has(id)) continue;
    if (rows.has(id)) {
      rows.delete(id);
      repeated.add(id);
    } else rows.set(id, j);
  }
  return rows;
}

/** Rows x of `a` and y of `b` both name something (a literal on the line below a call head counts), not the same thing. */
export function rowNamesDiffer(a: Lines, x: number, b: Lines, y: number): boolean {
  const ia = rowIdentity(a, x, lineIdentity);
  if (ia === null) return false;
  const ib = rowIdentity(b, y, lineIdentity);
  return ib !== null && ia !== ib;
}

/** Both lines name something, and not the same thing. */
export function namesDiffer(a: string, b: string): boolean {
  const ia = lineIdentity(a);
  if (ia === null) return false;
  const ib = lineIdentity(b);
  return ib !== null && ia !== ib;
}

/** Share of a renamed block's lines the update must show unchanged. */
const RENAME_KEPT = 0.8;

/** Non-blank, non-weak normalised lines (rows a..b exclusive). */
function solidLines(l: Lines, a: number, b: number): string[] {
  const out: string[] = [];
  for (let x = a; x < b; x++) if (!l.blank[x] && !l.weak[x]) out.push(l.norm[x]!);
  return out;
}

/** End (exclusive) of the block line h heads, and whether the lines hold it whole; null when h heads none. */
function headedBlock(l: Lines, h: number): { end: number; whole: boolean } | null {
  const close = closesAt(l.text, h);
  if (close > h) return { end: close, whole: true };
  // Allman: the block opens on the next line (`{` alone at the header's level).
  const next = h + 1 < l.text.length && !l.blank[h + 1] && l.norm[h + 1] === '{' && l.indent[h + 1] === l.indent[h] ? closesAt(l.text, h + 1) : -1;
  if (next > h + 1) return { end: next, whole: true };
  let end = h + 1;
  let deeper = false;
  for (let x = h + 1; x < l.text.length; x++) {
    if (l.blank[x]) continue;
    if (l.indent[x]! <= l.indent[h]!) return deeper ? { end, whole: true } : null;
    deeper = true;
    end = x + 1;
  }
  if (deeper) return { end, whole: false };
  // A bracket left open to the end of the lines (a body the lines cut off).
  return /[{([]\s*$/.test(l.norm[h]!) || /:$/.test(l.norm[h]!) ? { end: l.text.length, whole: false } : null;
}

function nextSolid(l: Lines, x: number, dir: 1 | -1): string | undefined {
  const y = strongRow(l, x, dir);
  return y >= 0 ? l.norm[y] : undefined;
}

/**
 * Update line i of `s` stands for original line j (which names something else) as a rename in place:
 * when j heads a block, at least half the block's lines go on as in the original's block (of the lines
 * shown, when the update cuts the block off); otherwise the nearest solid lines on both sides that
 * the update shows are the original's neighbours.
 */
export function renameShownInPlace(s: Lines, i: number, o: Lines, j: number): boolean {
  // A new name the update brings in beside the old one (new-name-evidence.ts) is a new sibling.
  if (newNameBesideOld(s, i, o, j)) return false;
  // The one member of a block the update shows whole, under a new name (sole-member.ts).
  if (soleMemberRewritten(s, i, o) === j) return true;
  const ob = headedBlock(o, j);
  if (ob) {
    const ub = headedBlock(s, i);
    const shown = ub ? solidLines(s, i + 1, ub.end) : [];
    const common = sharedLines(shown, solidLines(o, j + 1, ob.end));
    // Renamed where it stood: the solid line the update shows above it, when it is an original
    // line, is the one above the original's (a copied job written above `test:` is not `build:`).
    // So is a decorator or route line above it that names something else than the original's.
    const above = nextSolid(s, i, -1);
    const oAbove = nextSolid(o, j, -1);
    if (above !== undefined && !sameNeighbour(s, i, o, j, -1) && (normSet(o).has(above) || (oAbove !== undefined && namesDiffer(oAbove, above)))) return false;
    const whole = ub !== null && ub.whole;
    // Nearly all of it: a copy of a handler or job with a few lines changed is new code beside the
    // old one far more often than a rename, and reading it as a rename loses the old one.
    const need = RENAME_KEPT * (whole ? Math.max(shown.length, solidLines(o, j + 1, ob.end).length) : shown.length);
    // A body like every sibling's (a handler, message or table copied from the pattern) is no evidence (look-alike-blocks.ts).
    return shown.length === 0 || (common >= need && renamedBlockEvidenced(s, i, o, j, headedBlock, ownerRow));
  }
  const after = nextSolid(s, i, 1);
  const before = nextSolid(s, i, -1);
  return (after === undefined || sameNeighbour(s, i, o, j, 1)) && (before === undefined || sameNeighbour(s, i, o, j, -1));
}

/** Each row's owner (see `ownerRow`), computed once per Lines in one pass. */
const owners = new WeakMap<Lines, Int32Array>();

/**
 * The header of the block line x sits in: the nearest line above indented less, -1 at top level.
 * A header's continuation (`) -> Result<T> {`, `} else {`, a closing `}`) is owned by the line that
 * opened it (the nearest line above at its level that is not a continuation), and what follows it
 * by that line too. One pass with a stack of open headers, strictly deeper towards the top.
 */
export function ownerRow(l: Lines, x: number): number {
  let table = owners.get(l);
  if (!table) {
    table = new Int32Array(l.text.length).fill(-1);
    const stack: number[] = [];
    for (let y = 0; y < l.text.length; y++) {
      if (l.blank[y]) continue;
      const cont = CONTINUATION.test(l.norm[y]!);
      const level = headDepth(l, y);
      while (stack.length > 0 && (cont ? headDepth(l, stack[stack.length - 1]!) > level : headDepth(l, stack[stack.length - 1]!) >= level)) stack.pop();
      table[y] = stack.length > 0 ? stack[stack.length - 1]! : -1;
      if (!cont) stack.push(y);
    }
    owners.set(l, table);
  }
  return table[x]!;
}

/** Lines that go on the block of the header above them: closers, and an Allman `{` alone. */
const CONTINUATION = /^[)}\]]|^\{$/;

/**
 * Update line i of `s` and original line j (the same text) sit in blocks of the same name: the
 * headers above them, where the update shows one, do not name different things (the `bucket = …`
 * line of a new resource is not the one of the resource after it).
 */
export function sameOwner(s: Lines, i: number, o: Lines, j: number): boolean {
  let hs = i;
  let ho = j;
  // The headers above, level by level (a step's `steps:` is the same key in every job; the job's is not).
  for (let level = 0; level < MAX_OWNER_LEVELS; level++) {
    hs = ownerRow(s, hs);
    if (hs < 0) return true;
    ho = ownerRow(o, ho);
    if (ho < 0) return true;
    // A closer owned by the sibling before it (a comma-first record's `}` after its last field) has
    // no header at this level: a new field there is no other block.
    // A flat section header (`[cache:docker]`) heads the keys below it though they stand at its column.
    if (!headedBlock(s, hs) && !headedBlock(o, ho) && !isFlatSection(s, hs) && !isFlatSection(o, ho)) continue;
    // A head whose name the update brings in as new beside the old one is a new sibling's (new-name-evidence.ts).
    if (newNameBesideOld(s, hs, o, ho)) return false;
    // So do two list items named by their first key (`- name: STRIPE_API_KEY`, `- name: DATABASE_URL`).
    if (rowNamesDiffer(o, ho, s, hs) || namedItemsDiffer(o.norm[ho]!, s.norm[hs]!)) return renameShownInPlace(s, hs, o, ho);
  }
  return true;
}

/** What a head line names: its identity, or for lines without one the words before its first bracket or colon. */
export function headName(norm: string): string {
  return lineIdentity(norm) ?? norm.split(/[({[:]/, 1)[0]!.trim();
}

/** Header levels compared by `sameOwner`. */
const MAX_OWNER_LEVELS = 8;

const normSets = new WeakMap<Lines, Set<string>>();

function normSet(o: Lines): Set<string> {
  let set = normSets.get(o);
  if (!set) {
    set = new Set(o.norm);
    normSets.set(o, set);
  }
  return set;
}

/**
 * Update line i stands at original line j's depth: where the headers above i reach a line the
 * original has, after k levels, j's header k levels up is that line. An edit of j does not move it
 * into a new block (`if r := recover(); r != nil {` inside a new `defer func() {` is not the
 * function's own `if err := task(ctx); err != nil {`). For edited pairs only: code wrapped in a new
 * block keeps its equal lines as anchors.
 */
export function sameDepth(s: Lines, i: number, o: Lines, j: number): boolean {
  const has = normSet(o);
  let hs = i;
  let ho = j;
  for (let level = 0; level < MAX_OWNER_LEVELS; level++) {
    hs = ownerRow(s, hs);
    if (hs < 0) return true;
    ho = ownerRow(o, ho);
    if (has.has(s.norm[hs]!)) return ho >= 0 && o.norm[ho] === s.norm[hs];
    if (ho < 0) return true;
  }
  return true;
}
