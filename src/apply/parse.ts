// The apply message: `<instruction>…</instruction>` (optional), `<code>…</code>`, `<update>…</update>`,
// separated by newlines. Code may itself contain tag-like text (HTML `<code>` elements), so the
// boundaries are found from the outside in: code opens at the first `<code>`, the update closes at
// the last `</update>`, and the two meet at the `</code>` … `<update>` pair between them.

export interface ApplyInput {
  instruction: string | null;
  code: string;
  update: string;
  /** The update as written, when `update` has its markers expanded (merge.ts, marker-expansion.ts). */
  written?: string;
  /** The update the no-loss pass judges against, when `update` has body markers expanded (merge.ts). */
  judged?: string;
}

export type ParseResult = { ok: true; input: ApplyInput } | { ok: false; message: string };

/** One newline right after an opening tag and right before a closing tag is formatting, not content. */
function innerText(s: string): string {
  let out = s;
  if (out.startsWith('\r\n')) out = out.slice(2);
  else if (out.startsWith('\n')) out = out.slice(1);
  return out;
}

function stripClosingNewline(s: string): string {
  // Only the update drops its closing newline: the code keeps it, so the original's final-newline
  // convention is what the client sent.
  if (s.endsWith('\r\n')) return s.slice(0, -2);
  if (s.endsWith('\n')) return s.slice(0, -1);
  return s;
}

export function parseApplyContent(content: string): ParseResult {
  const codeOpen = content.indexOf('<code>');
  if (codeOpen < 0) return { ok: false, message: 'messages[0].content is missing the <code> tag with the original code' };
  const updateClose = content.lastIndexOf('</update>');
  const updateOpenLast = content.lastIndexOf('<update>');
  if (updateOpenLast < 0 || updateOpenLast < codeOpen) {
    return { ok: false, message: 'messages[0].content is missing the <update> tag with the changes (it must follow <code>)' };
  }
  if (updateClose < 0 || updateClose < updateOpenLast) {
    return { ok: false, message: 'messages[0].content has an <update> tag without its closing </update>' };
  }
  // The </code> that precedes the update: the first `</code>` + whitespace + `<update>` after the code opens.
  const sep = /<\/code>\s*<update>/g;
  sep.lastIndex = codeOpen + 6;
  const m = sep.exec(content);
  if (!m || m.index + m[0].length > updateClose) {
    return { ok: false, message: 'messages[0].content must close </code> before <update>' };
  }
  const codeRaw = content.slice(codeOpen + 6, m.index);
  const updateRaw = content.slice(m.index + m[0].length, updateClose);
  // An empty update would "merge" into an empty file: a client writing the result back would lose
  // the code. It is a required field with nothing in it.
  if (updateRaw.trim() === '') {
    return { ok: false, message: 'messages[0].content has an empty <update>: it must hold the changes, with `// ... existing code ...` lines for the unchanged sections' };
  }

  let instruction: string | null = null;
  const head = content.slice(0, codeOpen);
  const io = head.indexOf('<instruction>');
  if (io >= 0) {
    const ic = head.indexOf('</instruction>', io);
    if (ic < 0) return { ok: false, message: 'messages[0].content has an <instruction> tag without its closing </instruction>' };
    instruction = head.slice(io + 13, ic).trim();
  } else {
    const tail = content.slice(updateClose + 9);
    const to = tail.indexOf('<instruction>');
    const tc = tail.indexOf('</instruction>');
    if (to >= 0 && tc > to) instruction = tail.slice(to + 13, tc).trim();
  }
  return {
    ok: true,
    input: { instruction, code: innerText(codeRaw), update: stripClosingNewline(innerText(updateRaw)) },
  };
}
