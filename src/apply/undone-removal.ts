// An instruction that orders a removal ("drop the legacy footnote under the table", "Remove the
// "Quality checked" feature card") while the merged file keeps every solid line of the original: the
// removal was not carried out. The no-loss rule keeps code the update does not show deleted (the
// card lies under a marker, the import above the first anchor), so the merge cannot drop it itself;
// it says it did not do what was asked instead of reporting itself sure.
import { lineCounts, splitLines } from './lines.js';

/**
 * A removal verb in the imperative, at the instruction's start or after a clause boundary, with a
 * determined object ("delete the legacy block", ", drop the unused os import"). Not the verb as a
 * behaviour ("should remove the item", "to delete a task"), a participle ("don't allow deleting"),
 * a method name ("after remove()"), or an object without a determiner ("delete cancelled events
 * locally", "the edit and delete buttons"): those name no code to take out.
 */
const ORDERED_REMOVAL = /(?:^|[,;:]\s*|\b(?:and|then|also)\s+)(?:remove|delete|drop|eliminate|get rid of|strip out)\s+(?:the|this|that|these|those|its|their|all|every|any|unused|legacy|old|deprecated|`)/i;

export function ordersRemoval(instruction: string | null): boolean {
  if (instruction === null) return false;
  return instruction.split(/(?<=[.!?])\s+|\n/).some((sentence) => ORDERED_REMOVAL.test(sentence.trim()));
}

/** Every solid original line is still in `content` (as many times as the original has it): nothing was taken out. */
export function keepsEveryLine(code: string, content: string): boolean {
  const out = splitLines(content);
  const left = lineCounts(out, { solidOnly: true });
  const o = splitLines(code);
  for (let j = 0; j < o.text.length; j++) {
    if (o.blank[j]) continue;
    const n = left.get(o.norm[j]!) ?? 0;
    if (n === 0) return false;
    left.set(o.norm[j]!, n - 1);
  }
  return true;
}

/**
 * The instruction orders a removal and the merged file removed nothing. A kept definition the
 * removal names is not asked (a first version): "delete the test between the similar ones" names
 * twins the file keeps, and exact merges (26u java03, 28bp cs10) lost their confidence.
 */
export function removalUndone(code: string, instruction: string | null, content: string): boolean {
  return ordersRemoval(instruction) && keepsEveryLine(code, content);
}
