// A marker comment that moves on to another place in the file: `# ... and on the Project type:`,
// `// ... and update the forward declaration near the top:`, `<!-- ... and in the template, the
// header row: -->`. The dots stand for the code skipped; the words after them say where the next
// hunk goes, so they need not name elided code as other marker wordings do (marker-wordings.ts).
// Read as a new comment, the note is written into the file and the hunk after it is taken as going
// on from the one before, wherever its anchors are.

/** The words a model opens with when it goes on to the next place (`and`, `also`, `then`). */
const ONWARD = /^(?:and|also|then|plus|next|now|finally|likewise|similarly)\b/i;

/** Words and names (`:root`, `__init__`, `<head>`, `a.b`) with light punctuation; no code. */
const NOTE_TEXT = /^[\w\s'",:()/&+.[\]<>*!?@$#-]*$/;

/** Longest note read this way, in words. */
const MAX_WORDS = 12;

/**
 * True when a comment body opens with dots and goes on with a note that moves to the next hunk:
 * its first word is a connective, or it ends with a colon that announces the code after it.
 */
export function movingNote(body: string): boolean {
  const m = /^(?:\.{2,}|…)\s*(.*)$/.exec(body.trim());
  if (!m) return false;
  const words = m[1]!.replace(/\s*(?:\.{2,}|…)$/, '').trim();
  return shortNote(words) && (ONWARD.test(words) || words.endsWith(':'));
}

/** A rule of dashes, equals or stars around a note (`--- and in the param block ---`). */
const RULED = /^[-=*~]{2,}\s*(.*?)\s*[-=*~]{2,}$/;

/**
 * The same note without dots, in a comment that stands between two hunks (hunk-separator.ts):
 * `// and in the fixed window block:`, `// plus the stored property next to the others:`,
 * `# --- and in the param block ---`. Without the dots only a connective that goes on to another
 * place (`and`, `also`, `plus`, `then`) or a place (PLACE_OPENER) with a colon or a rule around the note says so; a code
 * comment such as `// also retry on timeout` or `// finally, close the pool` stays.
 */
export function onwardNote(body: string | null): boolean {
  const t = (body ?? '').trim();
  const ruled = RULED.exec(t);
  const words = ruled ? ruled[1]! : t;
  return shortNote(words) && (/^(?:and|also|plus|then)\s/i.test(words) || PLACE_OPENER.test(words)) && (ruled !== null || words.endsWith(':'));
}

/**
 * A note that opens with the end of a block the next hunk goes to (`// at the top of the class:`,
 * `# near the end of the play:`) moves on as a connective does. Over the committed sets no comment
 * that opens with a place and ends with a colon after a blank line is in an expected file; a code
 * comment that opens with `before` or `after` (`# before saving, normalise the keys:`) is
 * not read so.
 */
const PLACE_OPENER = /^(?:at|near|to|towards)\s+(?:the\s+)?(?:very\s+)?(?:top|end|bottom|start|beginning|head)\b/i;

/** Words and names only, at most maxWords of them. */
export function shortNote(words: string, maxWords = MAX_WORDS): boolean {
  // About eight characters a word, as the default's 100 for 12.
  if (words.length === 0 || words.length > Math.round((maxWords * 100) / MAX_WORDS) || !NOTE_TEXT.test(words)) return false;
  return words.split(/\s+/).length <= maxWords;
}
