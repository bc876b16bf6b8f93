// Assembles the merged file from placed segments: original text where a line is unchanged, update
// text (rebased) elsewhere, original lines outside every span kept, original line endings kept.
import { markedShift, shiftedText } from './marked-shift.js';
import { carrySeparators, separatorDroppedBeforeMarker } from './member-separators.js';
import type { Lines } from './lines.js';
import { indentText, renderLines } from './lines.js';
import type { MergeContext, Segment } from './merge-context.js';
import type { Span } from './merge-finish.js';

interface OutLine {
  text: string;
  /** The line's own terminator when it comes from the original; null = the file's dominant one. */
  eol: string | null;
  /** The original row a marker kept here (not shown by the update); undefined for update lines. */
  from?: number;
}

/** The text a segment contributes: original text where a line is unchanged, update text (rebased) elsewhere. */
function segmentOutput(o: Lines, seg: Segment, span: Span, out: OutLine[]): void {
  const s = seg.lines;
  const matched = new Map<number, number>();
  for (const [i, j] of span.pairs) matched.set(i, j);
  let lastContent = s.text.length - 1;
  while (lastContent >= 0 && s.blank[lastContent]) lastContent--;
  for (let i = 0; i < s.text.length; i++) {
    if (span.drop?.has(i)) continue;
    const j = matched.get(i);
    // Unchanged line: the original's bytes (tabs, trailing spaces). Internal whitespace the update
    // changed (gofmt re-aligning fields) is an edit, so that line comes from the update.
    if (j !== undefined && s.norm[i] === o.norm[j] && o.indent[j]! - s.indent[i]! === span.delta &&
        s.text[i]!.trim() === o.text[j]!.trim()) {
      out.push({ text: o.text[j]!, eol: o.eol[j] || null });
      continue;
    }
    // Its separator dropped right before a marker that stands for the members after it: unchanged (member-separators.ts).
    if (j !== undefined && separatorDroppedBeforeMarker(s.norm[i]!, o.norm[j]!, seg.markerAfter && i === lastContent)) {
      out.push({ text: o.text[j]!, eol: o.eol[j] || null });
      continue;
    }
    const t = s.text[i]!;
    if (s.blank[i]) {
      out.push({ text: '', eol: null });
      continue;
    }
    const lead = t.length - t.trimStart().length;
    const ws = t.slice(0, lead);
    if (j !== undefined && s.norm[i] === o.norm[j] && o.indent[j]! - s.indent[i]! === span.delta) {
      out.push({ text: o.text[j]!.slice(0, o.text[j]!.length - o.text[j]!.trimStart().length) + t.trim(), eol: o.eol[j] || null });
      continue;
    }
    const styleClash = (o.usesTabs && ws.includes(' ') && !ws.includes('\t')) || (!o.usesTabs && ws.includes('\t') && o.indent.some((x) => x > 0));
    if (span.delta === 0 && !styleClash) out.push({ text: t, eol: null });
    else out.push({ text: indentText(s.indent[i]! + span.delta, o.usesTabs) + t.slice(lead), eol: null });
  }
}

/** Assembles the merged file; `removed` marks original lines dropped by the instruction. */
export function assemble(ctx: MergeContext, spans: Span[], removed: ReadonlySet<number>): string {
  const o = ctx.orig;
  const out: OutLine[] = [];
  let cursor = 0;
  const keep = (a: number, b: number, shift = 0): void => {
    for (let j = a; j < b; j++) if (!removed.has(j)) out.push({ text: shiftedText(o, j, shift), eol: o.eol[j] || null, from: j });
  };
  for (let k = 0; k < spans.length; k++) {
    const sp = spans[k]!;
    const seg = ctx.segments[k]!;
    const start = Math.max(sp.start, cursor);
    // Lines a marker stands for inside a block the update re-indents move with it (marked-shift.ts).
    const shift = k > 0 && start > cursor ? markedShift(o, { seg: ctx.segments[k - 1]!, pairs: spans[k - 1]!.pairs, delta: spans[k - 1]!.delta }, { seg, pairs: sp.pairs, delta: sp.delta }, cursor, start) : 0;
    if (seg.markerBefore || k > 0) keep(cursor, start, shift);
    segmentOutput(o, seg, sp, out);
    cursor = Math.max(cursor, sp.end);
  }
  const lastSeg = ctx.segments[ctx.segments.length - 1];
  if (!lastSeg || lastSeg.markerAfter) keep(cursor, o.text.length);
  // A member appended after an original last member the update does not show takes its comma.
  carrySeparators(out, o);
  return renderLines(out, o.dominantEol, o.finalNewline || o.text.length === 0);
}
