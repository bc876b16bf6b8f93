// New members written under a container head the update shows: `class C {` / marker / a new method /
// `}`. The closers after the method are the container's own (closer-anchors.ts closingTail pairs them
// with its closing lines), so the method goes right before them. But a new method is written in the
// shape of its siblings, and its lines are matched where a sibling has them: a check the last method
// has once (`if (!res.ok) {`), a mapping annotation read as an edit of another endpoint's
// (`@GetMapping("/{id}/events")` for `@GetMapping`). Such an anchor puts the new method inside (or
// over) that sibling, and the sibling's lines are read as replaced. A line inside a definition the
// update shows whole and the original does not define has no original line to stand at: it anchors
// nothing, whatever text it shares with the original; its head is no rename of the sibling's, and
// growing back from the closers does not pair its lines with the sibling's equal ones. (A rename of
// the last member shown this way keeps the old member beside the new one: visible, never lost.)
import { lineIdentity } from './line-identity.js';
import { annotationLine } from './licence-rules.js';
import type { Lines } from './lines.js';
import type { Chain } from './merge-context.js';
import { blockEnd } from './removals.js';

const identities = new WeakMap<Lines, Set<string>>();

/** What the original's lines name (line-identity.ts), computed once per original. */
function namedIn(o: Lines): Set<string> {
  let set = identities.get(o);
  if (!set) {
    set = new Set<string>();
    for (let j = 0; j < o.text.length; j++) {
      if (o.blank[j]) continue;
      const id = lineIdentity(o.norm[j]!);
      if (id !== null) set.add(id);
    }
    identities.set(o, set);
  }
  return set;
}

/**
 * Rows (1) of segment s inside a definition it shows whole (its head, its body, its last line, and the
 * annotations right above its head) whose name the original names nowhere.
 */
export function newDefinitionRows(s: Lines, o: Lines): Uint8Array {
  const rows = new Uint8Array(s.text.length);
  const named = namedIn(o);
  for (let h = 0; h < s.text.length; h++) {
    if (s.blank[h]) continue;
    const id = lineIdentity(s.norm[h]!);
    if (id === null || named.has(id)) continue;
    const end = blockEnd(s, h);
    if (end <= h + 1 || !wholeBlock(s, h, end)) continue;
    for (let a = h - 1; a >= 0 && !s.blank[a] && s.indent[a] === s.indent[h] && leadsDefinition(s.norm[a]!); a--) rows[a] = 1;
    for (let i = h; i < end; i++) rows[i] = 1;
    h = end - 1;
  }
  return rows;
}

/** A module attribute with a plain value that marks the definition below it (`@impl true`, `@tag :slow`). */
const MARKING_ATTRIBUTE = /^@[a-z_]\w*\s+(?:true|false|[A-Z][\w.]*|:[\w?!]+)$/;

/** A line that belongs to the definition right below it: an annotation, attribute or decorator. */
export function leadsDefinition(norm: string): boolean {
  return annotationLine(norm) || MARKING_ATTRIBUTE.test(norm);
}

/**
 * The block [h, end) is complete in the segment: its last line closes it at the head's level
 * (`}`, `end`), or a line after it at or left of the head follows it (not a marker's cut).
 */
function wholeBlock(s: Lines, h: number, end: number): boolean {
  let last = end - 1;
  while (last > h && s.blank[last]) last--;
  if (s.indent[last]! <= s.indent[h]!) return true;
  let next = end;
  while (next < s.text.length && s.blank[next]) next++;
  return next < s.text.length && s.indent[next]! <= s.indent[h]!;
}

/**
 * Keeps the anchors of a chain that stand outside segment s's new definitions (see the file
 * comment); the definitions are found once, on the first chain that has anchors.
 */
export function outsideNewDefinitions(s: Lines, o: Lines): (chain: Chain) => Chain {
  let rows: Uint8Array | undefined;
  return (chain) => {
    if (chain.length === 0) return chain;
    rows ??= newDefinitionRows(s, o);
    return chain.filter(([i]) => rows![i] === 0);
  };
}
