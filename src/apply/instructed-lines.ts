// Rule (c) of the no-loss invariant (loss.ts): original lines the instruction asks to remove.
import { type Lines } from './lines.js';
import { asksForRemoval, attachedRemovalHeads, consecutivePairs, instructedStatements, instructedUnits, LEADING, removalNames, removalEnd, removalParams, removalScopes, replacedNames, replacedPhrases, takesParam } from './removals.js';
import { blockEnd, definesName } from './definition-blocks.js';
import { sectionEnd } from './spoken-targets.js';
import { inRanges, ownerRanges } from './removal-scope.js';
import { type UpdateView } from './update-view.js';

/** Original lines inside a definition the instruction asks to remove. */
export function instructedLines(orig: Lines, instruction: string | null, view: UpdateView): Set<number> {
  const out = instructedStatements(orig, instruction, new Set(view.where.keys()));
  for (const [start, end] of instructedUnits(orig, instruction, [...view.where.keys()].join('\n'))) for (let j = start; j < end; j++) out.add(j);
  if (!asksForRemoval(instruction) && replacedPhrases(instruction).length === 0) return out;
  const pairs = new Set<string>();
  for (const seg of view.segments) for (const p of consecutivePairs(seg.lines.norm, orig)) pairs.add(p);
  const targets = [...removalNames(orig, instruction, pairs), ...replacedNames(orig, instruction, [...view.where.keys()].join('\n'), pairs)];
  if (targets.length === 0) return out;
  // A target qualified by its owner (`SeriesService.update`) is licensed inside that owner only.
  const scopes = removalScopes(instruction);
  const params = removalParams(instruction);
  const ranges = new Map(targets.map((name) => [name, scopes.has(name) ? ownerRanges(orig, scopes.get(name)!, definesName, blockEnd) : null]));
  for (let h = 0; h < orig.text.length; h++) {
    if (orig.blank[h]) continue;
    for (const name of targets) {
      if (!definesName(orig.text[h]!, name) || !inRanges(ranges.get(name)!, h) || !takesParam(orig, h, params.get(name))) continue;
      let start = h;
      while (start > 0 && !orig.blank[start - 1] && LEADING.test(orig.norm[start - 1]!) && sectionEnd(orig, h) < 0) start--;
      const end = removalEnd(orig, h);
      for (let j = start; j < end; j++) out.add(j);
    }
  }
  // What belongs to a removed definition when the instruction says so ("its trigger", removals.ts).
  for (const h of attachedRemovalHeads(orig, instruction, [...view.where.keys()].join('\n'))) for (let j = h; j < blockEnd(orig, h); j++) out.add(j);
  return out;
}
