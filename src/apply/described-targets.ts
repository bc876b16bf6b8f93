// Definitions an instruction names by description, not by name: "Remove the two warehouse
// endpoints" means `getWarehouse` and `createWarehouse`. A plain word W right before a kind word
// (endpoint, route, handler, method, function, test) names the definitions whose name holds W as
// one of its words (camelCase or snake_case parts, singular or plural alike). Scoped by number: a
// singular kind word wants exactly one such definition, a count ("the two", "both") exactly that
// many, a plural without count one or more; otherwise none is named. When more definitions hold W
// than asked for, the other words of the description narrow them: those before W ("the legacy CSV
// export command" → `cmd_legacy_export`, not `cmd_export`; "legacy" counts here, it can be part of
// a name) and the owner after the kind word ("the update endpoint for reviews" → `updateReview`).
import { lispDefinitionName } from './block-names.js';
import type { Lines } from './lines.js';

const DESCRIBED =
  /\b(?:the\s+)?(?:(one|two|three|four|five|six|both|\d+)\s+)?((?:[a-z][a-z]+\s+){0,3}?)([a-z][a-z]+)\s+(endpoint|route|handler|method|function|test|action|command|subcommand|helper|variable|step|view|index)(s?|es)\b(?:\s+(?:for|of)\s+(?:the\s+)?([a-z][a-z]+))?/gi;
const COUNTS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, both: 2 };
/** Words that describe rather than name (`the unused helper functions`). */
const NOT_NAMES = new Set(['the', 'old', 'unused', 'legacy', 'deprecated', 'obsolete', 'debug', 'temporary', 'extra', 'duplicate', 'dead', 'other', 'all', 'these', 'those', 'private', 'public', 'helper', 'test', 'admin', 'async', 'static', 'new', 'two', 'both']);
const HEAD_NAME = /([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\s*\(/g;
/** An HCL block's last label names it (`variable "bastion_allowed_cidrs" {`). */
const HCL_LABEL = /^(?:variable|output|resource|data|module)\s+(?:"[^"]*"\s+)*"([\w-]+)"\s*\{/;
/** A SQL object's name (`CREATE INDEX subscriptions_status_idx ON …`): the definition itself, one line or many. */
const SQL_OBJECT = /^CREATE\s+(?:OR\s+REPLACE\s+)?(?:UNIQUE\s+)?(?:MATERIALIZED\s+)?(?:TABLE|VIEW|INDEX|FUNCTION|PROCEDURE|TRIGGER)\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:CONCURRENTLY\s+)?([\w$]+)/i;
/** A binding's name where no call names the head (`var restoreCmd = &cobra.Command{`, `let legacy_html req =`). */
const BOUND_NAME = /^(?:export\s+)?(?:let|var|val|const)\s+(?:rec\s+|mut\s+)?([A-Za-z_$][\w$]*)/;

/**
 * The non-blank lines around the definition at rows [h, end) (above its leading comments and
 * annotations) are shown next to each other by the update (`shownPairs`: "a\u0000b" of consecutive
 * non-blank update lines with no marker between).
 */
function shownAround(o: Lines, h: number, end: number, shownPairs?: ReadonlySet<string>): boolean {
  if (!shownPairs) return false;
  let p = h - 1;
  while (p >= 0 && (o.blank[p] || /^(@|\/\/|#|\/\*|\*|--|\[[A-Z])/.test(o.norm[p]!))) p--;
  let q = end;
  while (q < o.text.length && o.blank[q]) q++;
  return p >= 0 && q < o.text.length && shownPairs.has(`${o.norm[p]}\u0000${o.norm[q]}`);
}

function stem(w: string): string {
  const l = w.toLowerCase();
  return l.endsWith('ies') ? `${l.slice(0, -3)}y` : l.endsWith('ses') || l.endsWith('xes') ? l.slice(0, -2) : l.endsWith('s') ? l.slice(0, -1) : l;
}

/** A described word names an identifier's word: the same stem, or its -ing form (`clipping` → `clip`, `caching` → `cache`). */
function sameWord(said: string, word: string): boolean {
  if (said === word) return true;
  const base = said.endsWith('ing') ? said.slice(0, -3) : null;
  if (base === null || base.length < 3) return false;
  return word === base || word === `${base}e` || (base.length >= 4 && base[base.length - 1] === base[base.length - 2] && word === base.slice(0, -1));
}

/** The words of an identifier: `getWarehouseById` → get, warehouse, by, id. */
function words(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_$-]+/).filter(Boolean).map(stem);
}

/** Words of a description that say nothing of a name. */
const ARTICLES = new Set(['the', 'a', 'an', 'and', 'or', 'its', 'this', 'that', 'our', 'old', 'unused', 'now', 'no', 'longer', 'used']);

/** The names holding the most of the description's other words (at least one), or none. */
function bestDescribed(names: string[], others: string[]): string[] {
  if (others.length === 0) return [];
  const score = (n: string): number => {
    const w = words(n);
    return others.filter((x) => w.includes(x)).length;
  };
  const best = Math.max(...names.map(score));
  return best > 0 ? names.filter((n) => score(n) === best) : [];
}

/**
 * Names of the definitions in `o` that the removal phrases describe. `defines(text, name)` and
 * `blockEnd` come from removals.ts (a definition heads a block of more than one line).
 */
export function describedTargets(o: Lines, phrases: string[], defines: (text: string, name: string) => boolean, blockEnd: (o: Lines, h: number) => number, shownPairs?: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const phrase of phrases) {
    for (const m of phrase.matchAll(DESCRIBED)) {
      const word = m[3]!.toLowerCase();
      if (NOT_NAMES.has(word)) continue;
      const want = m[1] ? (COUNTS[m[1].toLowerCase()] ?? Number(m[1])) : m[5] ? 0 : 1;
      const others = [...m[2]!.split(/\s+/), m[6] ?? ''].filter((x) => x.length > 1 && !ARTICLES.has(x.toLowerCase())).map(stem);
      const w = stem(word);
      const found = new Map<string, boolean>();
      for (let j = 0; j < o.text.length; j++) {
        if (o.blank[j]) continue;
        // A Lisp definition names itself without a `(` after the name (`(defn fetch-user [id]`), an HCL block by its label.
        const sql = SQL_OBJECT.exec(o.norm[j]!)?.[1] ?? null;
        const own = sql ?? lispDefinitionName(o.norm[j]!) ?? HCL_LABEL.exec(o.norm[j]!)?.[1] ?? null;
        const heads = [...o.norm[j]!.matchAll(HEAD_NAME)].map((h) => h[1]!);
        const bound = heads.length === 0 ? BOUND_NAME.exec(o.norm[j]!)?.[1] : undefined;
        for (const name of own !== null ? [own] : bound !== undefined ? [bound] : heads) {
          const end = blockEnd(o, j);
          // A SQL statement is a definition on one line too (`CREATE INDEX … ;`).
          if (!words(name).some((x) => sameWord(w, x)) || !defines(o.text[j]!, name) || (end <= j + 1 && sql === null)) continue;
          found.set(name, (found.get(name) ?? false) || shownAround(o, j, end, shownPairs));
          break;
        }
      }
      // A word the file defines as a name is that name (removalTargets has it), not a description.
      if (found.has(m[3]!)) continue;
      if (found.size > 0 && (want === 0 || found.size === want)) out.push(...found.keys());
      // More than asked for ("the delete endpoint" of five): the ones the rest of the description
      // names best, or else the ones whose neighbours the update shows next to each other, when that many.
      else if (want > 0) {
        const described = bestDescribed([...found.keys()], others);
        const shown = [...found].filter(([, around]) => around).map(([n]) => n);
        if (described.length === want) out.push(...described);
        else if (shown.length === want) out.push(...shown);
      }
    }
  }
  return out;
}

/**
 * Names of the definitions a removal phrase names by all of its words in another order or form ("the
 * legacy uploads backup" → `backup_legacy_uploads`): two to four words, past the article, every one a
 * word of the name and the name no other word; exactly one definition in `o` so named, else none.
 */
export function namedByWords(o: Lines, phrases: string[], defines: (text: string, name: string) => boolean, blockEnd: (o: Lines, h: number) => number): string[] {
  const out: string[] = [];
  for (const phrase of phrases) {
    // The words up to a clause's end ("the legacy CSV export, nothing calls it").
    const clause = phrase.split(/[,:()\u2014\u2013]|\s-+\s/)[0]!;
    const said = clause.trim().split(/\s+/).filter((w) => w !== '' && !ARTICLES.has(w.toLowerCase()) && !ADVERBS.has(w.toLowerCase()));
    if (said.length < 2 || said.length > 4 || !said.every((w) => /^(?:[a-z]+|[A-Z]+)$/.test(w))) continue;
    const wanted = said.map(stem).sort().join(' ');
    const found = new Set<string>();
    for (let j = 0; j < o.text.length; j++) {
      if (o.blank[j]) continue;
      for (const h of o.norm[j]!.matchAll(HEAD_NAME)) {
        const name = h[1]!;
        if (words(name).sort().join(' ') === wanted && defines(o.text[j]!, name) && blockEnd(o, j) > j + 1) found.add(name);
      }
    }
    if (found.size === 1) out.push(...found);
  }
  return out;
}

const ADVERBS = new Set(['entirely', 'completely', 'altogether', 'too', 'also']);
