// The rename-and-callers edit as models write it when the instruction asks for the rename: the
// definition's head renamed with its body left to a marker (and its closing line), then each caller
// line renamed with markers between. The expected file has every whole-word use renamed. Held-out
// sets wrote it in TS, Haskell, Rust, JS and Java (docs/apply.md, branch editn).
import { marker, pick, type Change } from './edit-gen.js';
import { declared, ind, kindOf, result, type ShapeInput } from './edit-shapes.js';
import { escapeRe } from '../../src/apply/escape-regexp.js';

/** A new name in the file's own style (`load_rows` → `load_rows_v2`, `loadRows` → `loadRowsV2`). */
function newName(name: string): string {
  return name.includes('_') ? `${name}_v2` : `${name}V2`;
}

/** Whether line t only closes a block (`}`, `};`, `end`). */
function closes(t: string): boolean {
  return /^\s*(?:[})\]][)}\];,]*|end)\s*$/.test(t);
}

export function renameAndCallers(x: ShapeInput): ReturnType<typeof result> | null {
  const counts = new Map<string, number>();
  for (const b of x.blocks) counts.set(b.name, (counts.get(b.name) ?? 0) + 1);
  const word = (name: string): RegExp => new RegExp(`(?<![\\w$])${escapeRe(name)}(?![\\w$])`, 'g');
  const uses = (name: string, from: number, to: number): number[] =>
    x.lines.flatMap((t, j) => ((j < from || j >= to) && word(name).test(t) ? [j] : []));
  const cands = x.blocks.filter((b) => declared(x, b) && counts.get(b.name) === 1 && b.name.length >= 4 &&
    b.end - b.header >= 3 && uses(b.name, b.header, b.end).length > 0 && uses(newName(b.name), 0, 0).length === 0);
  const b = pick(x.r, cands);
  if (!b) return null;
  const to = newName(b.name);
  const changes: Change[] = x.lines.flatMap((t, j) => (word(b.name).test(t) ? [{ start: j, end: j + 1, lines: [t.replace(word(b.name), to)] }] : []));
  // The head renamed, its body elided by a marker at body depth, its closing line when it has one.
  const body = x.lines.slice(b.header + 1, b.end).find((t) => t.trim() !== '') ?? `${ind(x.lines[b.header]!)}  `;
  const update: string[] = [];
  if (b.header > 0) update.push(marker(x.lang, ind(x.lines[b.header]!), x.r));
  update.push(x.lines[b.header]!.replace(word(b.name), to), marker(x.lang, ind(body), x.r));
  if (closes(x.lines[b.end - 1]!)) update.push(x.lines[b.end - 1]!);
  // Each caller line outside the definition, renamed, a marker before it.
  for (const j of uses(b.name, b.header, b.end)) update.push(marker(x.lang, ind(x.lines[j]!), x.r), x.lines[j]!.replace(word(b.name), to));
  const last = uses(b.name, b.header, b.end).at(-1)!;
  if (last < x.lines.length - 1) update.push(marker(x.lang, ind(x.lines[last]!), x.r));
  // Worded the ways people ask for it: bare names, or with the kind word before or after the name.
  const kind = kindOf(x, b);
  const asked = [`Rename ${b.name} to ${to} and update its callers.`, `Rename the ${b.name} ${kind} to ${to}.`, `Rename the ${kind} \`${b.name}\` to \`${to}\` everywhere.`];
  return result(x, changes, update, pick(x.r, asked));
}
