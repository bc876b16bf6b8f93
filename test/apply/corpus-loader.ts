// Reads the apply corpus: one `.case` file per case, sections introduced by `@@@ <name>` lines:
// `options` (JSON), `instruction` (optional), `code`, `update`, `expected`. Each section's text is
// its lines joined with '\n' plus a final newline; options may switch the original and expected
// output to CRLF (`"crlf": true`), drop their final newline (`"finalNewline": false`) or turn
// leading 4-space runs into tabs everywhere (`"tabs": true`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CorpusCase {
  name: string;
  lang: string;
  /** Which of svc-v3-fast / svc-v3-large / auto must produce `expected` exactly. */
  modes: Array<'fast' | 'large' | 'auto'>;
  /** For auto: which model must have run, when the case pins it. */
  autoModel?: 'svc-v3-fast' | 'svc-v3-large';
  tags: string[];
  instruction: string | null;
  code: string;
  update: string;
  expected: string;
}

interface Options {
  lang: string;
  modes?: Array<'fast' | 'large' | 'auto'>;
  autoModel?: 'svc-v3-fast' | 'svc-v3-large';
  tags?: string[];
  crlf?: boolean;
  finalNewline?: boolean;
  /** Leading runs of 4 spaces become tabs in every section (Go, Makefiles). */
  tabs?: boolean;
  /** The original and the expected output start with a UTF-8 byte-order mark. */
  bom?: boolean;
}

export const CORPUS_DIR = join(import.meta.dirname, 'corpus');

export function parseCase(name: string, text: string): CorpusCase {
  const sections = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of text.split('\n')) {
    const m = /^@@@ (\w+)\s*$/.exec(line);
    if (m) {
      current = [];
      sections.set(m[1]!, current);
    } else if (current) current.push(line);
  }
  const body = (key: string): string | null => {
    const lines = sections.get(key);
    if (!lines) return null;
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines.join('\n') + '\n';
  };
  const opts = JSON.parse(body('options') ?? '{}') as Options;
  const code = body('code');
  const update = body('update');
  const expected = body('expected');
  if (code === null || update === null || expected === null) throw new Error(`${name}: needs code, update and expected sections`);
  const tabify = (s: string): string =>
    opts.tabs ? s.replace(/^((?: {4})+)/gm, (ws) => '\t'.repeat(ws.length / 4)) : s;
  const shape = (s: string): string => {
    let out = tabify(s);
    if (opts.finalNewline === false) out = out.slice(0, -1);
    if (opts.crlf) out = out.replace(/\n/g, '\r\n');
    if (opts.bom) out = '\uFEFF' + out;
    return out;
  };
  const instruction = body('instruction');
  return {
    name,
    lang: opts.lang,
    modes: opts.modes ?? ['fast', 'large', 'auto'],
    autoModel: opts.autoModel,
    tags: opts.tags ?? [],
    instruction: instruction === null ? null : instruction.trim(),
    code: shape(code),
    update: tabify(update.slice(0, -1)),
    expected: shape(expected),
  };
}

export const HELDOUT_DIR = join(import.meta.dirname, 'heldout', 'cases');

export function loadCorpus(dir = CORPUS_DIR): CorpusCase[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.case'))
    .sort()
    .map((f) => parseCase(f.replace(/\.case$/, ''), readFileSync(join(dir, f), 'utf8')));
}

/** The user message a client would send for this case. */
export function caseMessage(c: CorpusCase): string {
  const instr = c.instruction === null ? '' : `<instruction>${c.instruction}</instruction>\n`;
  return `${instr}<code>${c.code}</code>\n<update>${c.update}</update>`;
}
