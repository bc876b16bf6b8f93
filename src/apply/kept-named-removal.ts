// An instruction orders a removal of a thing named by a word ("Drop the black dev dependency", "remove
// the gift-wrap handler along with its on<> registration") that the update never shows, and the merged
// file still holds an original line naming it (`"black>=24.4",`, `on<CartGiftWrapToggled>(…);`): the
// removal was carried out in part or not at all. The no-loss rule keeps what the update does not show
// deleted, so the merge cannot tell a forgotten removal from code that only mentions the name; it says
// it did not do all that was asked instead of reporting itself sure. The output is not changed. Over
// every development case's expected file this never holds.
import { splitLines } from './lines.js';
import { ordersRemoval } from './undone-removal.js';

/** A removal verb and the object after it, to the clause's end ("now that", "since", a comma). */
const REMOVAL_OBJECT = /\b(?:remove|delete|drop|eliminate|get rid of|strip out)\s+([^.;:,!?\n\u2014\u2013()]*)/gi;
const CLAUSE_END = /\s(?:now|since|because|as|so|and|but|from|in|out|which|that|to|with|along|instead|while|when)\b/i;
/** Words before the name that describe or count it ("the unused", "both legacy"). */
const DESCRIBING = new Set(['the', 'a', 'an', 'this', 'that', 'these', 'those', 'its', 'their', 'all', 'every', 'any', 'unused', 'legacy', 'old', 'deprecated', 'obsolete', 'stale', 'dead', 'now', 'redundant', 'extra', 'two', 'three', 'both', 'temporary', 'debug']);

/** The kind words of a package entry, right after the name or after one describing word (`dev`). */
const PACKAGE_KIND = /^(?:[a-z]+\s+)?(?:dependency|dependencies|dep|deps|package|packages|gem|gems|crate|crates|plugin|plugins|extension|extensions|library|libraries)\b/i;
/** The instruction takes the thing's uses with it. */
const WITH_USES = /\b(?:along with|together with|and|plus)\s+(?:its|their|all|every)\s+(?:\S+\s+)?(?:registrations?|uses|usages?|call sites?|calls?|callers|references|wiring|subscriptions?|bindings?)\b/i;

/** The lower-case parts of the identifiers and words in a text: `on<CartGiftWrapToggled>` → on, cart, gift, wrap, toggled. */
function parts(text: string): string[] {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

/** The name word of each ordered removal's object: its first word past the describing ones, 3+ letters. */
function removedNames(instruction: string): string[][] {
  const out: string[][] = [];
  for (const m of instruction.matchAll(REMOVAL_OBJECT)) {
    const object = m[1]!.split(CLAUSE_END)[0]!.trim();
    const words = object.split(/\s+/).filter((w) => w !== '');
    let k = 0;
    while (k < words.length && DESCRIBING.has(words[k]!.toLowerCase())) k++;
    // A plain or hyphenated lower-case word names a thing (`black`, `gift-wrap`); a code name is read elsewhere.
    const word = words[k];
    if (word === undefined || k + 1 >= words.length || !/^[a-z][a-z0-9]{2,}(?:-[a-z0-9]+)*$/.test(word)) continue;
    // Only where every line naming it is to go: a list entry named by its package ("the black dev
    // dependency"), or a thing removed with its uses ("the gift-wrap handler along with its registration").
    if (!PACKAGE_KIND.test(words.slice(k + 1).join(' ')) && !WITH_USES.test(m[1]!)) continue;
    out.push(parts(word));
  }
  return out;
}

/**
 * A line names the thing: the name's parts run inside one identifier (`CartGiftWrapToggled` holds
 * gift, wrap), or make up a whole hyphenated token (`pry-byebug` is another package than `pry`).
 */
function holds(line: string, name: readonly string[]): boolean {
  for (const token of line.split(/[^A-Za-z0-9_-]+/)) {
    const p = parts(token);
    if (token.includes('-')) {
      if (p.length === name.length && name.every((x, j) => p[j] === x)) return true;
      continue;
    }
    for (let i = 0; i + name.length <= p.length; i++) if (name.every((x, j) => p[i + j] === x)) return true;
  }
  return false;
}

/**
 * Rows (0-based) of `content` that keep an original line naming a thing the instruction orders removed,
 * when the update holds no line naming it.
 */
export function keptNamedRemovals(code: string, update: string, instruction: string | null, content: string): number[] {
  if (instruction === null || !ordersRemoval(instruction)) return [];
  const names = removedNames(instruction);
  if (names.length === 0) return [];
  const o = splitLines(code);
  const u = splitLines(update);
  const out = splitLines(content);
  const originals = new Set(o.norm.filter((_, j) => !o.blank[j]));
  const rows: number[] = [];
  for (const name of names) {
    if (u.norm.some((n) => holds(n, name))) continue;
    if (!o.norm.some((n) => holds(n, name))) continue;
    out.norm.forEach((n, r) => {
      if (!out.blank[r] && originals.has(n) && holds(n, name) && !rows.includes(r)) rows.push(r);
    });
  }
  return rows.sort((a, b) => a - b);
}

