// A one-line markup element (`<td className="text-right">{order.items.length}</td>`) is its wrapper
// (the open and close tags) around its content. Cells, list items and options of one row share the
// wrapper; what tells one from another is the content, so an edit of an element is judged on it.
const ELEMENT_LINE = /^(<([\w.:-]+)\b[^<>]*>)(.*)(<\/\2>)$/;

/** The line's wrapper (open tag + close tag) and content, or null when it is not one element on one line. */
export function elementParts(norm: string): { wrap: string; content: string } | null {
  const m = ELEMENT_LINE.exec(norm);
  if (!m || !m[3]!.trim()) return null;
  return { wrap: m[1]! + m[4]!, content: m[3]! };
}
