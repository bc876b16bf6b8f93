// The same child under several parents (docs/apply.md, branch parentv): two copies of a container
// (a class, a module, an impl) that differ in one word outside the child, so the child reads the
// same in both. The update shows one copy's head, a marker indented as the child, then the child
// (one line edited, or the whole child added to the copy that lacks it), then a marker or the
// copy's closer. Only the head says which copy: a merge that reads the child's lines alone puts the
// edit into, or swaps it for, the other copy's child.
import { applyChanges, bodyLines, findBlocks, marker, pick, type Block, type Change, type Edit } from './edit-gen.js';
import { declared, editIn, ind, join, type ShapeInput } from './edit-shapes.js';
import { containerKind, withTwin } from './model-shapes.js';

export function childUnderShownParent(x: ShapeInput): Omit<Edit, 'shape'> | null {
  const holders = x.blocks.filter((c) => containerKind(x.lines[c.header]!) && c.end - c.header <= 120);
  const container = pick(x.r, holders);
  if (!container) return null;
  const k = x.blocks.indexOf(container);
  const kids = x.blocks.filter((b) => b.parent === k && declared(x, b) && bodyLines(x.lines, b).length > 0);
  if (kids.length < 2) return null;
  // The child edited, and another child whose word the twin renames (so the edited child reads the same in both copies).
  const child = pick(x.r, kids);
  const other = pick(x.r, kids.filter((b) => b !== child));
  const t = withTwin(x, container, other);
  if (!t) return null;
  const at = x.r() < 0.5 ? 0 : t.offset;
  const head = t.lines[container.header + at]!;
  // Only the head pins the copy: it must be a line the file has once.
  if (t.lines.filter((l) => l.trim() === head.trim()).length !== 1) return null;
  const childLines = t.lines.slice(child.header + at, child.end + at);
  if (childLines.join('\n') !== x.lines.slice(child.header, child.end).join('\n')) return null;
  const u = ind(childLines[0]!);
  const lead = container.header + at > 0 ? [marker(x.lang, ind(head), x.r)] : [];
  const closes = x.lang.style !== 'indent' && child === kids[kids.length - 1] && t.lines.slice(child.end + at, container.end + at - 1).every((l) => l.trim() === '');
  if (x.r() < 0.6 || !closes) {
    // One line of the child edited in this copy.
    const y: ShapeInput = { lines: t.lines, lang: x.lang, blocks: findBlocks(t.lines, x.lang), r: x.r };
    const tb = y.blocks.find((b: Block) => b.header === child.header + at && b.end === child.end + at);
    const c = tb ? editIn(y, tb) : null;
    if (!c) return null;
    const body = applyChanges(t.lines.slice(tb!.header, tb!.end), [{ ...c, start: c.start - tb!.header, end: c.end - tb!.header }]);
    const update = [...lead, head, marker(x.lang, u, x.r), ...body, marker(x.lang, u, x.r)];
    return built(t.lines, [c], update, `Update ${child.name} in the second copy.`);
  }
  // The last child added to the copy that lacks it, shown before that copy's closer.
  const lines = [...t.lines.slice(0, child.header + at), ...t.lines.slice(child.end + at)];
  const add: Change = { start: child.header + at, end: child.header + at, lines: childLines };
  const closer = t.lines[container.end + at - 1]!;
  const update = [...lead, head, marker(x.lang, u, x.r), ...childLines, closer, ...(container.end + at < t.lines.length ? [marker(x.lang, ind(closer), x.r)] : [])];
  return built(lines, [add], update, `Add ${child.name} to this copy.`);
}

function built(lines: string[], changes: Change[], update: string[], instruction: string): Omit<Edit, 'shape'> {
  return { instruction, update: update.join('\n'), expected: join(applyChanges(lines, changes)), determined: true, original: join(lines) };
}
