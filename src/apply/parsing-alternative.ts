// A merged file that no longer parses where its original and the edit's intent did was put
// together wrongly by one step (a definition swapped in from a snippet a marker cut inside its
// leading annotation list, a greedy placement splicing a method into the wrong twin). The pipeline
// can already read the same update other ways (without the syntax pass, with the other alignment
// algorithm); the first of those that parses, puts no original line back and keeps every update
// line the first result had is the better reading. None is computed unless the result is broken.
import { splitLines } from './lines.js';
import type { MergeResult } from './merge.js';
import { newSyntaxErrors } from './syntax/parse-check.js';

export interface Alternative {
  /** How the update was merged again, for the note: "without the syntax pass". */
  how: string;
  merge: () => MergeResult;
}

/** A merge read another way because the first did not parse is at most this sure of itself. */
const REREAD_CONFIDENCE = 0.5;

/**
 * The first alternative whose result parses where `original` does, put back no original line
 * (the no-loss pass had no doubt) and holds every update line `first` holds; null when none does.
 */
export function parsingAlternative(original: string, update: string, first: MergeResult, broken: number[], alternatives: Alternative[]): MergeResult | null {
  const shown = keptUpdateLines(update, first.content);
  for (const alt of alternatives) {
    const r = alt.merge();
    if (r.content === first.content || r.report.restored.length > 0) continue;
    if (!holdsAll(r.content, shown) || newSyntaxErrors(original, r.content)) continue;
    const note = `the first merge did not parse at line${broken.length > 1 ? 's' : ''} ${broken.join(', ')}; merged again ${alt.how}, which parses`;
    return { ...r, confidence: Math.min(r.confidence, REREAD_CONFIDENCE), ambiguities: [...r.ambiguities, note] };
  }
  return null;
}

/** Normalised non-blank update lines that `content` holds (markers and dropped lines are not in it). */
function keptUpdateLines(update: string, content: string): Set<string> {
  const have = normalisedLines(content);
  return new Set([...normalisedLines(update)].filter((t) => have.has(t)));
}

function holdsAll(content: string, lines: ReadonlySet<string>): boolean {
  const have = normalisedLines(content);
  for (const t of lines) if (!have.has(t)) return false;
  return true;
}

function normalisedLines(text: string): Set<string> {
  return new Set(splitLines(text).norm.filter((t) => t.length > 0));
}
