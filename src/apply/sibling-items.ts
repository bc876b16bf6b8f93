// Two lines of one shape whose every literal differs are two items of a list, not one item edited:
// `<li><a href="/subscribe">Subscribe</a></li>` → `<li><a href="/api-status">API</a></li>`,
// `"lodash": "^4.17.21",` → `"zod": "^3.22.4",`. Written next to an anchor with a marker after it,
// such a line is a new item; reading it as an edit of the original's next item loses that item.
// Literals: quoted strings and markup text between tags; everything else is the line's shape.
import { escapeRe } from './escape-regexp.js';
import { lineCounts, perText, solidRow, type Lines } from './lines.js';
import { INLINE_MARKER } from './markers.js';
import { extendedInPlace } from './extended-line.js';
import { startsWithCloser } from './brackets.js';

const LITERAL = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`|>[^<>]+</g;

function split(norm: string): { shape: string; literals: string[] } {
  const literals: string[] = [];
  const shape = norm.replace(LITERAL, (m) => {
    literals.push(m);
    return m[0] === '>' ? '>\u0000<' : '\u0000';
  });
  return { shape, literals };
}

/**
 * A list item that opens with the key naming it — a YAML `- name: QUEUE_CONCURRENCY`, an object
 * element `{ id: "grpc", port: 9000 },` — gives that key and its value.
 */
const NAMED_ITEM = /^(?:-\s+|\{\s*)(["']?)(name|id|key)\1\s*[:=]\s*("[^"]*"|'[^']*'|[^,\s}]+)/;

/** A setting line: one bare key, then `=` or `:` and a value (`deletion_protection = true`, `port: 80`). */
const SETTING = /^(["']?)([\w$.-]+)\1\s*[:=](?![=:])\s*\S/;

/** Lower-case word parts of a key: `auto_minor_version`, `autoMinorVersion` → auto, minor, version. */
function keyParts(k: string): Set<string> {
  return new Set(k.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase().split(/[\s_.$-]+/).filter(Boolean));
}

/**
 * Two settings under keys sharing no word (`auto_minor_version_upgrade = true` beside
 * `performance_insights_enabled = true`): another setting, not the key renamed. A rename keeps a
 * part of the name (`max_conns` → `max_connections`, `desc` → `description`, `ipv4` → `ipv6`).
 */
function otherSetting(a: string, b: string): boolean {
  const ka = SETTING.exec(a)?.[2];
  const kb = ka && SETTING.exec(b)?.[2];
  if (!ka || !kb || ka === kb) return false;
  // A key its own value uses, renamed at every place on the line (`tmp = max(tmp, x)` → `peak =
  // max(peak, x)`): a variable renamed with its uses, not another setting.
  if (renamedEverywhere(a, b, ka, kb)) return false;
  const pa = [...keyParts(ka)];
  // Words that share their first three letters (`desc` → `description`) or differ only in digits
  // (`ipv4` → `ipv6`) make it a rename.
  const related = (x: string, y: string): boolean => x === y || x.replace(/\d+/g, '') === y.replace(/\d+/g, '') ||
    (x.length >= 3 && y.length >= 3 && x.slice(0, 3) === y.slice(0, 3));
  for (const p of keyParts(kb)) if (pa.some((q) => related(p, q))) return false;
  return true;
}

/** `b` is `a` with every whole-word `from` (at least twice) turned into `to`. */
function renamedEverywhere(a: string, b: string, from: string, to: string): boolean {
  const word = new RegExp(`(?<![\\w$])${escapeRe(from)}(?![\\w$])`, 'g');
  return (a.match(word)?.length ?? 0) >= 2 && a.replace(word, to) === b;
}

/** Two list items opening with the same naming key set to other values (`- name: A` / `- name: B`). */
export function namedItemsDiffer(a: string, b: string): boolean {
  const na = NAMED_ITEM.exec(a);
  const nb = na && NAMED_ITEM.exec(b);
  return !!na && !!nb && na[2] === nb[2] && na[3] !== nb[3];
}

/**
 * `a` and `b` are two items of a list: the same shape, at least two literals and not one in common,
 * or items opening with the same naming key (`- name: A` / `- name: B`) set to other values.
 */
export function anotherSibling(a: string, b: string): boolean {
  if (a === b) return false;
  const na = NAMED_ITEM.exec(a);
  const nb = na && NAMED_ITEM.exec(b);
  if (na && nb && na[2] === nb[2]) return na[3] !== nb[3];
  if (otherSetting(a, b)) return true;
  const sa = split(a);
  if (sa.literals.length < 2) return false;
  const sb = split(b);
  if (sa.shape !== sb.shape) return false;
  for (let k = 0; k < sa.literals.length; k++) if (sa.literals[k] === sb.literals[k]) return false;
  return true;
}

const ELEMENT = /^<([\w.:-]+)\b/;
const ELEMENT_NAME = /\b(?:[\w:-]*id|name|key|for)\s*=\s*["'{]([^"'}]*)["'}]/;

/**
 * Two elements of other tags and other names (`<ProgressBar android:id="@+id/spinner" />` beside
 * `<ImageView android:id="@+id/logo" />`): a new element, never the old one renamed in place.
 */
export function anotherElement(a: string, b: string): boolean {
  const ta = ELEMENT.exec(a)?.[1];
  const tb = ELEMENT.exec(b)?.[1];
  if (!ta || !tb || ta === tb) return false;
  const na = ELEMENT_NAME.exec(a)?.[1];
  const nb = ELEMENT_NAME.exec(b)?.[1];
  return na !== undefined && nb !== undefined && na !== nb;
}

/**
 * A setting row of an item (`from = "/app/*"`, `"port": 9000,`, YAML `- from: /a` opening one): the
 * dash that opens an item, the key, and the value without a trailing comma.
 */
const ITEM_SETTING = /^(-\s+)?(["']?)([\w$.-]+)\2\s*[:=](?![=:])\s*(\S.*?)\s*,?$/;

/**
 * A leaf element is a setting too: `<artifactId>mapstruct</artifactId>` sets `artifactId` in the
 * `<dependency>` it is written in (a Maven dependency, a NuGet package, any XML record).
 */
const LEAF_ELEMENT = /^<([\w.:-]+)>([^<>]*\S[^<>]*)<\/\1>$/;

/** ITEM_SETTING's groups for a setting row of either kind: [row, dash, quote, key, value]. */
function settingRow(norm: string): readonly [string, string | undefined, string, string, string] | null {
  const m = ITEM_SETTING.exec(norm);
  if (m) return [m[0], m[1], m[2]!, m[3]!, m[4]!];
  const x = LEAF_ELEMENT.exec(norm);
  return x ? [x[0], undefined, '', x[1]!, x[2]!.trim()] : null;
}

interface Item {
  /** Key → value of the item's settings. */
  settings: Map<string, string>;
  /** The row that opens the item: the line above its settings (`[[redirects]]`, `{`), the dash row itself, or -1. */
  head: number;
}

/** Column of a setting row's key: its indentation, plus the dash that opens a YAML item. */
function keyColumn(l: Lines, x: number, m: NonNullable<ReturnType<typeof settingRow>>): number {
  return l.indent[x]! + (m[1]?.length ?? 0);
}

/**
 * The item row x is a setting of: the run of setting rows at its key column with no blank or other
 * line between (a YAML dash row opens one and ends the one before), or null when x is no setting.
 */
function itemAt(l: Lines, x: number): Item | null {
  const mx = settingRow(l.norm[x]!);
  if (!mx) return null;
  const col = keyColumn(l, x, mx);
  const settings = new Map<string, string>([[mx[3]!, mx[4]!]]);
  let head = -1;
  if (mx[1]) head = x;
  else {
    let y = x - 1;
    for (; y >= 0 && !l.blank[y]; y--) {
      const m = settingRow(l.norm[y]!);
      if (!m || keyColumn(l, y, m) !== col) break;
      settings.set(m[3]!, m[4]!);
      if (m[1]) break;
    }
    head = y >= 0 && !l.blank[y] ? y : -1;
  }
  for (let y = x + 1; y < l.text.length && !l.blank[y]; y++) {
    const m = settingRow(l.norm[y]!);
    if (!m || m[1] || keyColumn(l, y, m) !== col) break;
    settings.set(m[3]!, m[4]!);
  }
  return { settings, head };
}

/** An element of a list opens the item: a TOML `[[table]]` header, a lone `{` (an object in an array), a YAML dash, a bare opening tag (`<dependency>`). */
const LIST_ELEMENT_HEAD = /^(?:\[\[[^\]]+\]\]|\{|-\s.*|<[\w.:-]+>)$/;

function listElement(l: Lines, item: Item): boolean {
  return item.head >= 0 && LIST_ELEMENT_HEAD.test(l.norm[item.head]!);
}

/** Per text: how many rows hold each normalised line. */
const solidCounts = perText((l) => lineCounts(l, { solidOnly: true }));

function countOf(l: Lines, norm: string): number {
  return solidCounts(l).get(norm) ?? 0;
}

/**
 * Update row i is a setting of a new item beside original row j's item, not j's edit: both rows set
 * the same key, the two items share at least two keys and set every one of them to another value
 * (`[[redirects]]` `from = "/changelog"` / `to = …` / `status = 301` beside the `/app/*` entry), the
 * original sets that key in other items too (a list of such items), and nothing the original has once
 * heads the update's item (`[context.branch-deploy.environment]` shown above it pins it: its
 * settings are edits, however many change). One value kept, or one kept whole and extended, is an
 * entry edited in place. Items named by an identity key are judged by it instead (`otherIdentity`).
 */
export function anotherItem(o: Lines, j: number, s: Lines, i: number): boolean {
  const mj = settingRow(o.norm[j]!);
  const mi = mj && settingRow(s.norm[i]!);
  if (!mj || !mi || mj[3] !== mi[3]) return false;
  const items = listItems(o, j, s, i);
  if (!items) return false;
  const [a, b] = items;
  const named = otherIdentity(o, a, b);
  if (named !== null) return named;
  let shared = 0;
  for (const [k, v] of b.settings) {
    const w = a.settings.get(k);
    if (w === undefined) continue;
    // A value that keeps the old one whole around an inserted run (`[…, 'postcss-loader']` →
    // `[…, 'postcss-loader', 'sass-loader']`, often written with an inline marker for the kept part)
    // is that value's edit: the item is edited in place, however many other values change.
    if (w === v || INLINE_MARKER.test(v) || extendedInPlace(w, v)) return false;
    shared++;
  }
  if (shared < 2) return false;
  return keySetElsewhere(o, j, mj[3]!);
}

/**
 * The items of original row j and update row i when both are elements of a list, and nothing the
 * original has once heads the update's item (`[context.branch-deploy.environment]` shown above it
 * pins it: its settings are edits, however many change); otherwise null.
 */
function listItems(o: Lines, j: number, s: Lines, i: number): [Item, Item] | null {
  const a = itemAt(o, j);
  const b = itemAt(s, i);
  // Only elements of a list are siblings so: a mapping under a block key (`limits:`, `[database]`)
  // is one place, however many of its values change.
  if (!a || !b || !listElement(o, a) || !listElement(s, b)) return null;
  if (settingRow(s.norm[b.head]!) === null && countOf(o, s.norm[b.head]!) === 1) return null;
  return [a, b];
}

/** The original sets `key` on at least two rows: j's item is one of a list of such items. */
function keySetElsewhere(o: Lines, j: number, key: string): boolean {
  let rows = 0;
  for (let y = 0; y < o.text.length && rows < 2; y++) {
    const m = o.blank[y] ? null : settingRow(o.norm[y]!);
    if (m && m[3] === key) rows++;
  }
  return rows >= 2;
}

/**
 * Keys that name the item they are set in: a webpack rule's `test`, a redirect's `from` or
 * `source`, a dependency's or service's `name`, a record's `id`, a panel's `title`.
 */
const IDENTITY_KEYS = ['name', 'id', 'key', 'test', 'from', 'source', 'title', 'path', 'uid', 'slug'];

/** Values of identity key `key` in the original's items (every row setting it). */
function identityValues(o: Lines, key: string): Set<string> {
  const out = new Set<string>();
  for (let y = 0; y < o.text.length; y++) {
    const m = o.blank[y] ? null : settingRow(o.norm[y]!);
    if (m && m[3] === key) out.add(m[4]!);
  }
  return out;
}

/**
 * What the items' identity key says about update item b beside original item a: true when b is
 * another item (its identity is another original item's, or a new one while b changes or adds a
 * setting besides: a new webpack rule keeping the png rule's `type: 'asset/resource'`), false when b
 * is a's edit (the same identity; one grown or shrunk in place; a new one with every other setting
 * kept: the key renamed in place), null when the items share no identity key or the original names
 * fewer than two items by it.
 */
function otherIdentity(o: Lines, a: Item, b: Item): boolean | null {
  const key = IDENTITY_KEYS.find((k) => a.settings.has(k) && b.settings.has(k));
  if (key === undefined) return null;
  const va = a.settings.get(key)!;
  const vb = b.settings.get(key)!;
  if (va === vb || INLINE_MARKER.test(vb) || extendedInPlace(va, vb)) return false;
  // A list of such items: the original names at least two by that key.
  const names = identityValues(o, key);
  if (names.size < 2) return null;
  if (names.has(vb)) return true;
  const kept: string[] = [];
  for (const [k, v] of b.settings) {
    if (k === key) continue;
    if (a.settings.get(k) !== v) return true;
    kept.push(v);
  }
  // One kept value beside a new name (`- name: NEW_FLAG` / `value: "true"`) is as often a new item
  // copying its neighbour's value as a rename: read it as new, which keeps the neighbour. A kept
  // block key (`ansible.builtin.template:`, its body below) is no copied value: the rename reading stays.
  return kept.length === 1 && kept[0] !== '';
}

/**
 * Update row i, a setting equal to original row j's or of its key, lies in another item than j's by
 * the items' identity key (`otherIdentity`): a line a new item copies (`type: 'asset/resource'`,
 * `permanent: true`) is no anchor at j, however rarely the original has it.
 */
export function settingOfOtherItem(o: Lines, j: number, s: Lines, i: number): boolean {
  const mj = settingRow(o.norm[j]!);
  const mi = mj && settingRow(s.norm[i]!);
  if (!mj || !mi || mj[3] !== mi[3]) return false;
  const items = listItems(o, j, s, i);
  return items !== null && otherIdentity(o, items[0], items[1]) === true;
}

/**
 * Segment row i opens an item (`[[redirects]]`, a lone `{`) equal to original row j's line, and the
 * settings below it are a new item beside j's (`anotherItem`): the segment row past that item, where
 * an edge growing down goes on (the item is new lines inserted before j); otherwise null.
 */
export function pastNewItem(s: Lines, i: number, o: Lines, j: number): number | null {
  if (s.norm[i] !== o.norm[j] || settingRow(s.norm[i]!) !== null) return null;
  const x = solidRow(s, i, 1);
  const y = solidRow(o, j, 1);
  if (x !== i + 1 || y !== j + 1 || !anotherItem(o, y, s, x)) return null;
  let end = x;
  while (end + 1 < s.text.length && !s.blank[end + 1] && s.indent[end + 1] === s.indent[x] && settingRow(s.norm[end + 1]!) !== null) end++;
  // The closer of a new object (`},` under its `{`) is the new item's, not the next one's.
  const closer = end + 1;
  if (s.norm[i] === '{' && closer < s.text.length && s.weak[closer] && s.indent[closer] === s.indent[i] && startsWithCloser(s.norm[closer]!)) return closer + 1;
  // So is the closing tag of a new element (`</dependency>` under its `<dependency>`).
  if (closer < s.text.length && s.indent[closer] === s.indent[i] && s.norm[closer] === s.norm[i]!.replace(/^</, '</')) return closer + 1;
  return end + 1;
}
