// Two lines of one shape whose every literal differs are two items of a list, not one item edited:
// `<li><a href="/subscribe">Subscribe</a></li>` → `<li><a href="/api-status">API</a></li>`,
// `"lodash": "^4.17.21",` → `"zod": "^3.22.4",`. Written next to an anchor with a marker after it,
// such a line is a new item; reading it as an edit of the original's next item loses that item.
// Literals: quoted strings and markup text between tags; everything else is the line's shape.
import { escapeRe } from './escape-regexp.js';

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
