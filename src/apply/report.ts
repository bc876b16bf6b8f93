// What a merge did, for the `x-apply-report` response header and the log: each hunk's placement
// rule and the original lines it replaced, lines removed because the instruction named them, and
// original lines the no-loss pass kept because the update's placement was uncertain, and the
// definitions the syntax pass swapped.
import type { PlacementRule } from './merge-finish.js';

export interface MergeReport {
  /** One per update segment, in order: how it was placed and the original lines [start, end) it replaced. */
  hunks: Array<{ rule: PlacementRule; start: number; end: number }>;
  /** Original lines dropped because the instruction names their definition. */
  removedByInstruction: number;
  /** Original lines (0-based) the no-loss pass put back. */
  restored: number[];
  /** The update had no marker and was taken as the whole file. */
  wholeFile: boolean;
  /** Definitions the syntax pass swapped (same kind and name in the original), when it ran. */
  syntax?: { language: string; definitions: Array<{ kind: string; name: string; start: number; end: number }> };
  /** Original lines (0-based) dropped because the update shows the lines around them adjacent, with nothing to tell a run left out from one deleted (loss.ts `removedByAdjacency`). */
  removedByAdjacency?: number[];
  /** 1-based lines where the result fails to parse though the original parsed (syntax/parse-check.ts). */
  syntaxErrors?: number[];
  /** Original lines (0-based) kept beside a new line that restates them, which the update never shows (kept-beside-edit.ts). */
  keptBesideEdit?: number[];
  /** Original lines (0-based) replaced by the new line beside them that sets the same key or also returns (kept-beside-edit.ts `rewrittenBesideEdit`). */
  replacedBesideEdit?: number[];
  /** Original block heads (0-based) kept beside a new block that restates their whole body in their place (superseded-blocks.ts). */
  supersededBlocks?: number[];
  /** Output rows (0-based) where a run of lines starts that the next lines repeat, though neither the original nor the update holds it twice in a row (doubled-runs.ts). */
  doubledRuns?: number[];
  /** Output rows (0-based) right after a `return`/`raise`/`throw` at its depth, which neither the original nor the update puts there (after-exit.ts). */
  linesAfterExit?: number[];
  /** The instruction orders a removal and the result removes no original line (undone-removal.ts). */
  removalUndone?: boolean;
  /** Output rows (0-based) keeping an original line that names what the instruction orders removed (kept-named-removal.ts). */
  keptNamedRemovals?: number[];
}

/** One header-safe line: `hunks=3 anchors=2 position=1; removed-by-instruction=4; kept-uncertain=2`. */
export function describeReport(r: MergeReport): string {
  const parts: string[] = [];
  if (r.wholeFile) parts.push('whole-file');
  else {
    const byRule = new Map<string, number>();
    for (const h of r.hunks) byRule.set(h.rule, (byRule.get(h.rule) ?? 0) + 1);
    parts.push([`hunks=${r.hunks.length}`, ...[...byRule].map(([k, v]) => `${k}=${v}`)].join(' '));
  }
  if (r.syntax) parts.push(`definitions=${r.syntax.definitions.length} (${r.syntax.language})`);
  if (r.removedByInstruction > 0) parts.push(`removed-by-instruction=${r.removedByInstruction}`);
  if (r.removedByAdjacency) parts.push(`removed-by-adjacency=${r.removedByAdjacency.length}`);
  parts.push(`kept-uncertain=${r.restored.length}`);
  if (r.syntaxErrors) parts.push(`syntax-errors=${r.syntaxErrors.length}`);
  if (r.replacedBesideEdit) parts.push(`replaced-beside-edit=${r.replacedBesideEdit.length}`);
  if (r.keptBesideEdit) parts.push(`kept-beside-edit=${r.keptBesideEdit.length}`);
  if (r.supersededBlocks) parts.push(`superseded-kept=${r.supersededBlocks.length}`);
  if (r.removalUndone) parts.push('removal-undone');
  if (r.doubledRuns) parts.push(`doubled-runs=${r.doubledRuns.length}`);
  if (r.linesAfterExit) parts.push(`after-exit=${r.linesAfterExit.length}`);
  if (r.keptNamedRemovals) parts.push(`kept-named-removal=${r.keptNamedRemovals.length}`);
  return parts.join('; ');
}
