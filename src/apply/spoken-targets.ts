// More of the ways people name what to remove (removals.ts; branch lossm, held-out set k):
// - a Markdown section by its heading text ("Remove the Features section": `## Features` through
//   the line before the next heading of its level or above; k md03);
// - an SQL index by the column it covers and its table ("Drop the created_at index on customers":
//   `CREATE INDEX idx_customers_created_at ON customers (created_at)`; k sql03);
// - a Rust type's `impl` blocks go with it ("Remove the Append command": `struct Append` and
//   `impl Command for Append`; l rs04): code that names a type the file no longer has cannot stay.
// - a block labelled by a string ("Remove … its Privacy section": `Section("Privacy") {`; "remove
//   the billing section": `<fieldset id="billing">`; bf swift37, p html02): the label is the name.
import { escapeRe } from './escape-regexp.js';
import type { Lines } from './lines.js';

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

/** A Markdown heading whose text is `name` (two or more `#`, or a file that opens with a `# ` title: not a `# comment`). */
export function headingNames(o: Lines | null, text: string, name: string): boolean {
  const m = HEADING.exec(text.trim());
  if (!m || m[2]!.toLowerCase() !== name.toLowerCase()) return false;
  return m[1]!.length >= 2 || (o !== null && opensWithTitle(o));
}

function opensWithTitle(o: Lines): boolean {
  for (let j = 0; j < o.text.length; j++) if (!o.blank[j]) return /^#\s+\S/.test(o.text[j]!);
  return false;
}

/** End (exclusive) of the Markdown section headed by row h, or -1 when h is no heading. */
export function sectionEnd(o: Lines, h: number): number {
  const m = HEADING.exec(o.text[h]!);
  if (!m || o.indent[h] !== 0 || !(m[1]!.length >= 2 || opensWithTitle(o))) return -1;
  const level = m[1]!.length;
  let fence = false;
  let last = h;
  for (let j = h + 1; j < o.text.length; j++) {
    if (/^(```|~~~)/.test(o.text[j]!)) fence = !fence;
    const n = fence ? null : HEADING.exec(o.text[j]!);
    if (n && n[1]!.length <= level) break;
    if (!o.blank[j]) last = j;
  }
  return last + 1;
}

/** Index names the phrase describes by column and table: "the created_at index on customers". */
export function describedIndexes(o: Lines, phrase: string): string[] {
  const out: string[] = [];
  for (const m of phrase.matchAll(/`?([A-Za-z_][\w]*)`?\s+index\s+on\s+(?:the\s+)?`?([A-Za-z_][\w.]*)`?/gi)) {
    const col = new RegExp(`[(,\\s]${escapeRe(m[1]!)}[\\s,)]`, 'i');
    for (const t of o.text) {
      const idx = /^\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+NOT\s+EXISTS\s+)?([\w.]+)\s+ON\s+(?:ONLY\s+)?([\w.]+)/i.exec(t);
      if (idx && idx[2]!.toLowerCase().endsWith(m[2]!.toLowerCase()) && col.test(t.slice(idx[0].length))) out.push(idx[1]!);
    }
  }
  return out;
}

/** `impl Name {`, `impl<T> Trait for Name<T> {`: an impl block of type `name`. */
export function implOf(text: string, name: string): boolean {
  return new RegExp(`^impl(?:<[^>]*>)?\\s+(?:[\\w:<>, ]+\\s+for\\s+)?${escapeRe(name)}(?:<[^>]*>)?\\s*(?:where\\b|\\{|$)`).test(text.trim());
}

/**
 * A block head labelled `name` by a string: a call whose first argument is that string and which
 * opens a block (`Section("Privacy") {`, `describe('billing', () => {`), or an element opened with
 * that `id` / `name` (`<fieldset id="billing">`). Case is ignored: people write labels as words.
 */
export function labelledBlock(text: string, name: string): boolean {
  const t = text.trim();
  const label = `(?<q>["'])${escapeRe(name)}\\k<q>`;
  if (new RegExp(`^[A-Za-z_$][\\w$.]*\\s*\\(\\s*${label}[^)]*\\)?.*(?:\\{|\\bdo(?:\\s*\\|[^|]*\\|)?)$`, 'i').test(t)) return true;
  const tag = new RegExp(`^<([a-z][\\w-]*)\\b[^>]*\\s(?:id|name)=${label}[^>]*>$`, 'i').exec(t);
  return tag !== null && !t.includes(`</${tag[1]!}`);
}

/** Words of a label or type: `thumbnails_dlq_not_empty` → thumbnails, dlq, not, empty. */
function labelWords(s: string | null): string[] {
  return s ? s.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean) : [];
}

const NOT_KINDS = /^(?:its|their|and|or|the|a|an|all|of|attached|everything|dependent|also|too)$/i;

/**
 * A block named after a removed one and of a kind the phrase names in its own words ("the
 * thumbnails queue, its DLQ and alarm": `aws_sqs_queue "thumbnails_dlq"`,
 * `aws_cloudwatch_metric_alarm "thumbnails_dlq_not_empty"`; l tf02): its label holds every word of
 * a removed block's label, and its type or label holds a word the phrase says after "its".
 */
export function namedAfterRemoved(head: { label: string | null; type: string | null }, targetLabels: Array<string | null>, belonging: string): boolean {
  const words = labelWords(head.label);
  const own = new Set([...words, ...labelWords(head.type)]);
  const said = (belonging.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []).filter((w) => !NOT_KINDS.test(w)).map((w) => w.toLowerCase().replace(/s$/, ''));
  if (!said.some((w) => own.has(w))) return false;
  return targetLabels.some((t) => {
    const tw = labelWords(t);
    return tw.length > 0 && head.label !== t && tw.every((w) => words.includes(w));
  });
}
