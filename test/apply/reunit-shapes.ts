// A snippet written at another indentation unit than its file (docs/apply.md, branch reindenty): two
// spaces a level for a file indented by four or by tabs, four for a file of two, as held-out sets
// wrote it in CSS, nginx and TSX. Any shape's edit is taken and its update re-rendered level by level
// in the other unit, with spaces; the expected file keeps the file's own indentation and characters.
// Only updates whose lines all sit at whole levels of the file's unit are re-rendered (a file whose
// snippet lines are aligned under a parenthesis, or indented unevenly, gives no edit).
import type { Shape } from './edit-shapes.js';

/** The file's indentation: '\t' when lines are indented by tabs, else the most common step in spaces. */
function fileUnit(lines: string[]): string | null {
  if (lines.some((l) => l.startsWith('\t'))) return '\t';
  const steps = new Map<number, number>();
  let prev = 0;
  for (const l of lines) {
    if (l.trim() === '') continue;
    const d = l.length - l.trimStart().length;
    if (d > prev) steps.set(d - prev, (steps.get(d - prev) ?? 0) + 1);
    prev = d;
  }
  let best = 0;
  for (const [d, n] of steps) if (best === 0 || n > steps.get(best)!) best = d;
  return best > 0 ? ' '.repeat(best) : null;
}

/** The unit a model writes instead: two spaces for tabs or four, four for two. */
function otherUnit(unit: string): string | null {
  if (unit === '\t' || unit === '    ') return '  ';
  if (unit === '  ') return '    ';
  return null;
}

/** One update line re-rendered from `unit` to `other`, level by level; null when it is not at a whole level. */
function reunitLine(line: string, unit: string, other: string): string | null {
  if (line.trim() === '') return line;
  const lead = line.length - line.trimStart().length;
  const ws = line.slice(0, lead);
  if (ws.length % unit.length !== 0 || ws !== unit.repeat(ws.length / unit.length)) return null;
  return other.repeat(ws.length / unit.length) + line.slice(lead);
}

/** `shape`'s edit with its update written in the other indentation unit; null where the file has none to swap. */
export function inOtherUnit(shape: Shape): Shape {
  return (x) => {
    const unit = fileUnit(x.lines);
    const other = unit === null ? null : otherUnit(unit);
    if (unit === null || other === null) return null;
    const e = shape(x);
    if (!e) return null;
    const lines = e.update.split('\n').map((l) => reunitLine(l, unit, other));
    if (lines.some((l) => l === null)) return null;
    const update = lines.join('\n');
    return update === e.update ? null : { ...e, update };
  };
}
