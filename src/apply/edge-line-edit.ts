// The file's first or last line edited in place. A model that rewrites the line ending the file
// (`main()` → `sys.exit(main())`) and stops there shows the file's end as surely as one that
// copies that line unchanged: the line is replaced, not kept after the new one.
import { editedVersion } from './lines.js';
import { wrapsLine } from './wrapped-line.js';

/** Update line `shown` reads as an edit of original line `orig` (both normalised). */
export function editsEdgeLine(orig: string, shown: string): boolean {
  if (orig === shown || orig.length === 0 || shown.length === 0) return false;
  return editedVersion(orig, shown) || wrapsLine(orig, shown);
}
