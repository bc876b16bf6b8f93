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
import { openHeadIdentity } from './block-names.js';
import { bracketDelta, closesAt } from './brackets.js';
import { keyedBlockHeadName, keyedBlockName } from './keyed-block-head.js';
import { lineIdentity } from './line-identity.js';
import { annotationLine } from './licence-rules.js';
import { perText, renamedInPlace, solidRow, type Lines } from './lines.js';
import { rowsOf, type Chain } from './merge-context.js';
import { blockEnd } from './definition-blocks.js';
import { renamedWithUses } from './rename-evidence.js';
import { soleMemberRewritten } from './sole-member.js';

/** What the original's lines name (line-identity.ts), computed once per original. */
const namedIn = perText((o: Lines) => {
  const set = new Set<string>();
  for (let j = 0; j < o.text.length; j++) {
    if (o.blank[j]) continue;
    const id = definitionName(o.norm[j]!) ?? keyedBlockName(o.norm[j]!);
    if (id !== null) set.add(id);
  }
  return set;
});

/** The name a line heads (line-identity.ts), the definition it heads with its parameters going on below, or a keyed block's head. */
function definitionName(norm: string): string | null {
  return lineIdentity(norm) ?? openHeadIdentity(norm) ?? keyedBlockHeadName(norm);
}

/** End (exclusive) of the definition headed at h: past a parameter list over several lines, its body's `{` below (Allman). */
function definitionEnd(s: Lines, h: number): number {
  const end = blockEnd(s, h);
  if (end <= h + 1 || !/\)$/.test(s.norm[end - 1]!)) return end;
  const brace = solidRow(s, end - 1, 1);
  if (brace < 0 || s.norm[brace] !== '{' || s.indent[brace] !== s.indent[h]) return end;
  const close = closesAt(s.text, brace);
  return close > brace ? close + 1 : end;
}

/**
 * Rows (1) of segment s inside a definition it shows whole (its head, its body, its last line, and the
 * annotations right above its head) whose name the original names nowhere. `endIndent` is the
 * indentation of the marker after the segment, if any: a marker at or left of a head ends its block.
 */
export function newDefinitionRows(s: Lines, o: Lines, endIndent: number | null = null, segments: ReadonlyArray<{ lines: Lines }> = []): Uint8Array {
  const rows = new Uint8Array(s.text.length);
  const named = namedIn(o);
  for (let h = 0; h < s.text.length; h++) {
    if (s.blank[h]) continue;
    const id = definitionName(s.norm[h]!);
    if (id === null || named.has(id)) continue;
    const end = definitionEnd(s, h);
    if (end <= h + 1 || !wholeBlock(s, h, end, endIndent) || renamedOriginal(s, h, end, o) || renamesOriginalHead(s, h, o, segments) || soleMemberRewritten(s, h, o) >= 0) continue;
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
function wholeBlock(s: Lines, h: number, end: number, endIndent: number | null): boolean {
  let last = end - 1;
  while (last > h && s.blank[last]) last--;
  if (s.indent[last]! <= s.indent[h]!) return true;
  let next = end;
  while (next < s.text.length && s.blank[next]) next++;
  // Cut off by a marker: an indentation block ends at a marker at or left of its head; a bracket left open does not.
  if (next >= s.text.length) return endIndent !== null && endIndent <= s.indent[h]! && bracketsClosed(s, h, end);
  return s.indent[next]! <= s.indent[h]!;
}

/**
 * The lines after the head at h are an original definition's, all of them in order: that definition
 * renamed (a copy that changes nothing but its name is not new code anyone writes).
 */
function renamedOriginal(s: Lines, h: number, end: number, o: Lines): boolean {
  const body: string[] = [];
  for (let x = h + 1; x < end; x++) if (!s.blank[x]) body.push(s.norm[x]!);
  if (body.length === 0) return false;
  return rowsOf(o, body[0]!).some((r) => {
    let y = r;
    for (const line of body) {
      if (y < 0 || o.norm[y] !== line) return false;
      y = solidRow(o, y, 1);
    }
    return true;
  });
}

/**
 * The head at h is an original head with its name renamed, and the update carries that rename through
 * the original's other lines in their places, never showing the old name (rename-evidence.ts): a
 * helper renamed with its callers, whatever its new body holds, is that helper, not a new one beside it.
 */
function renamesOriginalHead(s: Lines, h: number, o: Lines, segments: ReadonlyArray<{ lines: Lines }>): boolean {
  if (segments.length === 0) return false;
  for (let j = 0; j < o.text.length; j++) {
    if (o.blank[j] || o.indent[j] !== s.indent[h] || definitionName(o.norm[j]!) === null) continue;
    if (renamedInPlace(o.norm[j]!, s.norm[h]!) && renamedWithUses(segments, o, j, s.norm[h]!)) return true;
  }
  return false;
}

function bracketsClosed(s: Lines, h: number, end: number): boolean {
  let depth = 0;
  for (let x = h; x < end; x++) depth += bracketDelta(s.text[x]!);
  return depth <= 0;
}

/**
 * The anchors and grown edges of segment s outside its new definitions (rows of newDefinitionRows).
 * Before the closers of a container an earlier segment shows open (`beforeClosers`), such rows anchor
 * nothing at all: the new definitions go at the container's end. Elsewhere the same holds where the
 * segment has anchors outside them: a definition the update shows whole under a name the original has
 * nowhere is new even when its body copies a sibling's line for line, so those other anchors alone
 * place it (it goes where its neighbours say, never over the sibling it copies); where every anchor is
 * inside one (a definition shown alone) nothing changes, unless the segment follows a marker that
 * stands for the body of the header the previous segment ends on (`afterShownBody`): that body's end
 * is then the neighbouring anchor. `anchors` filters a chain; `run` cuts an edge
 * grown from the anchors (forwards, dir 1, or backwards, -1, given in file order) at the first row of
 * a new definition it meets. `segments` (the whole update) lets a renamed head be read as renamed.
 */
export function newDefinitionAnchors(s: Lines, o: Lines, endIndent: number | null, beforeClosers: boolean, afterShownBody: boolean, segments: ReadonlyArray<{ lines: Lines }> = []): NewDefinitionAnchors {
  let rows: Uint8Array | undefined;
  const newRows = (): Uint8Array => (rows ??= newDefinitionRows(s, o, endIndent, segments));
  let active = beforeClosers;
  return {
    rows: newRows,
    anchors: (chain) => {
      if (chain.length === 0) return chain;
      const kept = chain.filter(([i]) => newRows()[i] === 0);
      if (beforeClosers) return kept;
      // After a marker that stands for the body of the header the previous segment ends on, that
      // body's end is the neighbouring anchor: the new definitions go there (shown-block.ts).
      const placed = kept.length > 0 || afterShownBody ? kept : chain;
      active = kept.length === placed.length && newRows().includes(1);
      return placed;
    },
    run: (pairs, dir) => {
      if (!active || pairs.length === 0) return pairs;
      const r = newRows();
      if (dir > 0) {
        const cut = pairs.findIndex(([i]) => r[i] === 1);
        return cut < 0 ? pairs : pairs.slice(0, cut);
      }
      let from = pairs.length;
      while (from > 0 && r[pairs[from - 1]![0]] === 0) from--;
      return pairs.slice(from);
    },
  };
}

export interface NewDefinitionAnchors {
  /** The segment's rows inside new definitions (newDefinitionRows), computed on first use. */
  rows: () => Uint8Array;
  anchors: (chain: Chain) => Chain;
  run: (pairs: Array<[number, number]>, dir: 1 | -1) => Array<[number, number]>;
}
