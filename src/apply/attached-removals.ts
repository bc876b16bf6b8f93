// Removals of what belongs to a removed definition, when the instruction says so: "remove the labels
// table, its trigger and its index", "the reports bucket and all of its resources and outputs",
// "… and everything attached to it". What belongs to it is a top-level definition that refers to
// it: a Terraform block using `aws_s3_bucket.reports` (or sharing the named block's label), a SQL
// statement `… ON labels`. Only with a possessive or "attached"/"everything" in the phrase, only of
// the kinds it names when it names any, and never a definition the update shows: a table with a
// foreign key to the removed one is another table, not "its" anything (`REFERENCES` is no `ON`).
import type { Lines } from './lines.js';
import { escapeRe } from './escape-regexp.js';
import { namedAfterRemoved } from './spoken-targets.js';

/** An HCL block head: `resource "aws_s3_bucket" "reports" {`, `output "reports_arn" {`, `module "vpc" {`. */
const HCL_HEAD = /^(resource|data|module|output|variable|provider)\s+((?:"[^"]*"\s*)+)\{\s*$/;
/** A SQL statement head: `CREATE [UNIQUE] INDEX …`, `CREATE TRIGGER …`, `CREATE TABLE …`. */
const SQL_HEAD = /^CREATE\s+(?:OR\s+REPLACE\s+)?(?:UNIQUE\s+)?(?:MATERIALIZED\s+)?(TABLE|VIEW|FUNCTION|INDEX|PROCEDURE|TRIGGER|POLICY|SEQUENCE|RULE)\b/i;

/** The phrase extends the removal to what belongs to the target. */
const BELONGING = /\b(?:its|their)\b|\battached\b|\beverything\b|\bdependent\b/i;

/** Kind words of a phrase mapped to the kinds of definition they name. */
const KIND_OF: Array<[RegExp, string]> = [
  [/\btriggers?\b/i, 'trigger'],
  [/\bindex(?:es)?\b|\bindices\b/i, 'index'],
  [/\bviews?\b/i, 'view'],
  [/\bpolic(?:y|ies)\b/i, 'policy'],
  [/\bsequences?\b/i, 'sequence'],
  [/\bresources?\b/i, 'resource'],
  [/\boutputs?\b/i, 'output'],
  [/\bdata sources?\b/i, 'data'],
];

interface Head {
  row: number;
  kind: string;
  /** What other definitions write to refer to it (`aws_s3_bucket.reports`, `ON labels`). */
  ref: RegExp | null;
  label: string | null;
  type: string | null;
}

function headAt(o: Lines, j: number): Head | null {
  if (o.indent[j] !== 0) return null;
  const norm = o.norm[j]!;
  const h = HCL_HEAD.exec(norm);
  if (h) {
    const labels = [...h[2]!.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
    const kind = h[1]!;
    const label = labels[labels.length - 1] ?? null;
    const type = labels.length > 1 ? labels[0]! : null;
    const refText = kind === 'resource' && type && label ? `${type}.${label}` : kind === 'data' && type && label ? `data.${type}.${label}` : kind === 'module' && label ? `module.${label}` : null;
    return { row: j, kind, label, type, ref: refText ? new RegExp(`(^|[^\\w.])${escapeRe(refText)}(?![\\w-])`) : null };
  }
  const s = SQL_HEAD.exec(norm);
  if (s) {
    const kind = s[1]!.toLowerCase();
    const name = kind === 'table' || kind === 'view' ? /^CREATE\s+.*?\b(?:TABLE|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w."]+)/i.exec(norm)?.[1] ?? null : null;
    const bare = name?.replace(/"/g, '') ?? null;
    return { row: j, kind, label: bare, type: null, ref: bare ? new RegExp(`\\bON\\s+(?:ONLY\\s+)?"?${escapeRe(bare)}"?(?![\\w.])`, 'i') : null };
  }
  return null;
}

/**
 * Header rows of top-level definitions that belong to a definition the instruction removes: for
 * each removal phrase that says so (BELONGING), the definitions named by its target `name` (rows
 * `targetRows`) give the references looked for. `blockEnd` gives each definition's extent.
 */
export function attachedHeads(o: Lines, phrase: string, targetRows: number[], updateText: string, blockEnd: (o: Lines, h: number) => number): number[] {
  if (!BELONGING.test(phrase)) return [];
  const kinds = new Set(KIND_OF.filter(([re]) => re.test(phrase.slice(phrase.search(BELONGING)))).map(([, k]) => k));
  const targets = targetRows.map((r) => headAt(o, r)).filter((h): h is Head => h !== null && h.ref !== null);
  if (targets.length === 0) return [];
  const shown = new Set(updateText.split('\n').map((l) => l.trim()).filter(Boolean));
  const out: number[] = [];
  for (let j = 0; j < o.text.length; j++) {
    if (o.blank[j] || targetRows.includes(j)) continue;
    const head = headAt(o, j);
    if (!head || shown.has(o.norm[j]!)) continue;
    // Or named after a removed block, of a kind the phrase says in its own words (spoken-targets.ts).
    const named = namedAfterRemoved(head, targets.map((t) => t.label), phrase.slice(phrase.search(BELONGING)));
    if (kinds.size > 0 && !kinds.has(head.kind) && !named) continue;
    const end = blockEnd(o, j);
    let refers = named;
    for (let r = j; r < end && !refers; r++) refers = targets.some((t) => t.ref!.test(o.norm[r]!));
    if (refers) out.push(j);
  }
  return out;
}
