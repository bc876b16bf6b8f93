// A new member appended to a container the update shows by its head (docs/apply.md, branch classx):
// `class C {` / a marker indented as the members / a new method / the class's closer. The new method
// is written in its last sibling's shape (a copy of it under a new name, one statement changed), so
// most of its lines are lines of that sibling: a merge that matches them there puts the method inside
// or over the sibling. Only the head, the marker and the closer say where it goes: at the end.
import { applyChanges, marker, pick, strongLine, type Change, type Edit } from './edit-gen.js';
import { declared, ind, join, type ShapeInput } from './edit-shapes.js';
import { containerKind } from './model-shapes.js';
import { escapeRe } from '../../src/apply/escape-regexp.js';

const SUFFIXES = ['Batch', 'Later', 'Safely', 'Copy', 'Again'];

/** A plain statement line (no block opened, continued or closed on it). */
function plainStatement(t: string): boolean {
  return strongLine(t) && !/[{([:,\\]\s*$|=>\s*$/.test(t.trim()) && !/^[})\]]/.test(t.trim()) && !/^(?:else|elif|catch|except|finally|case|default|return)\b/.test(t.trim());
}

export function newMemberAtShownHead(x: ShapeInput): Omit<Edit, 'shape'> | null {
  if (x.lang.style !== 'brace') return null;
  const holders = x.blocks.filter((c) => containerKind(x.lines[c.header]!) && c.end - c.header <= 160);
  const container = pick(x.r, holders);
  if (!container) return null;
  const k = x.blocks.indexOf(container);
  const kids = x.blocks.filter((b) => b.parent === k && declared(x, b) && b.end - b.header >= 3 && b.name.length >= 3);
  if (kids.length < 2) return null;
  const last = kids.reduce((a, b) => (b.end > a.end ? b : a));
  const closerRow = container.end - 1;
  const closer = x.lines[closerRow]!;
  // The last member ends the container: only blank lines between it and the closer.
  if (!/^\s*}/.test(closer) || !x.lines.slice(last.end, closerRow).every((l) => l.trim() === '')) return null;
  const head = x.lines[container.header]!;
  // The head pins the container: a line the file has once.
  if (x.lines.filter((l) => l.trim() === head.trim()).length !== 1) return null;
  const name = `${last.name}${pick(x.r, SUFFIXES)}`;
  if (x.lines.some((t) => t.includes(name))) return null;
  const copy = x.lines.slice(last.header, last.end);
  copy[0] = copy[0]!.replace(new RegExp(`\\b${escapeRe(last.name)}\\b`), name);
  if (copy[0] === x.lines[last.header]) return null;
  const body = copy.map((t, n) => n).filter((n) => n > 0 && n < copy.length - 1 && plainStatement(copy[n]!));
  const n = pick(x.r, body);
  if (n === undefined) return null;
  copy[n] = x.lang.statement(ind(copy[n]!), `${name} step`);
  const u = ind(copy[0]!);
  const add: Change = { start: last.end, end: last.end, lines: ['', ...copy] };
  const lead = container.header > 0 ? [marker(x.lang, ind(head), x.r)] : [];
  const tail = container.end < x.lines.length ? [marker(x.lang, ind(closer), x.r)] : [];
  const update = [...lead, head, marker(x.lang, u, x.r), '', ...copy, closer, ...tail];
  return { instruction: `Add ${name}.`, update: update.join('\n'), expected: join(applyChanges(x.lines, [add])), determined: true };
}
