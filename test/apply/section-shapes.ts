// Generated edits of one key under one of several flat sections that hold the same key (docs/apply.md,
// branch keysy), over the INI and TOML files of the committed sets: the update shows the section's
// header, then either a marker and the edited key, or the section's lines down to the edited key, then
// a marker. Only the header (or the lines shown under it) says which section: a merge that reads the
// key's line alone edits the section whose line is most like the new one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pick, rng } from './edit-gen.js';
import { hash } from './sources.js';

export interface SectionEdit {
  name: string;
  code: string;
  update: string;
  expected: string;
}

const HEADER = /^\[\[?[^\],\s][^\],]*\]\]?$/;
const KEY = /^([\w.-]+)\s*[=:]\s*(.*)$/;
const WORDINGS = ['...', '... existing keys ...', '... unchanged ...'];

/** Original files of the committed sets that are laid out in flat sections. */
function sources(): Array<{ name: string; lines: string[]; comment: string }> {
  const root = join(import.meta.dirname, '..', '..', 'bench', 'apply');
  const out: Array<{ name: string; lines: string[]; comment: string }> = [];
  for (const set of readdirSync(root).sort()) {
    const dir = join(root, set);
    if (!/^(external|probes)-/.test(set) || !statSync(dir).isDirectory()) continue;
    for (const id of readdirSync(dir).sort()) {
      const meta = join(dir, id, 'meta.json');
      if (!existsSync(meta)) continue;
      const lang = (JSON.parse(readFileSync(meta, 'utf8')) as { lang?: string }).lang ?? '';
      if (!/^(ini|toml|cfg|conf|gitconfig|editorconfig|desktop|properties)$/.test(lang)) continue;
      const text = readFileSync(join(dir, id, 'original'), 'utf8');
      if (text.includes('\r')) continue;
      out.push({ name: `${set}/${id}`, lines: text.replace(/\n$/, '').split('\n'), comment: lang === 'toml' ? '#' : ';' });
    }
  }
  return out;
}

/** A new value for a key line: replaced whole, a number changed, or a word appended inside the value. */
function edited(line: string, r: () => number): string {
  const m = KEY.exec(line)!;
  const value = m[2]!;
  // A value replaced whole (`pushurl = no_push`): nothing but the key says which line it edits.
  if (r() < 0.25) return line.slice(0, line.length - value.length) + (/^["']/.test(value) ? '"off"' : 'off');
  const num = /\d+/.exec(value);
  if (num && r() < 0.7) return line.slice(0, line.length - value.length) + value.replace(/\d+/, String(Number(num[0]) * 2 + 1));
  const quoted = /^(["'])(.*)\1$/.exec(value);
  const next = quoted ? `${quoted[1]}${quoted[2]}-next${quoted[1]}` : `${value}-next`;
  return line.slice(0, line.length - value.length) + next;
}

/** Edits drawn `draws` times per file: a key that several sections hold, edited in one of them. */
export function sectionKeyEdits(draws: number, seed: string): SectionEdit[] {
  const out: SectionEdit[] = [];
  for (const src of sources()) {
    const lines = src.lines;
    const headers = lines.flatMap((l, y) => (HEADER.test(l) ? [y] : []));
    if (headers.length < 2) continue;
    // Column-0 key rows of each section, by key.
    const byKey = new Map<string, Array<{ header: number; row: number }>>();
    headers.forEach((h, n) => {
      const end = headers[n + 1] ?? lines.length;
      for (let y = h + 1; y < end; y++) {
        const m = KEY.exec(lines[y]!);
        if (!m || /^\s/.test(lines[y]!) || m[2]!.trim() === '' || /[[{(]$/.test(m[2]!)) continue;
        const list = byKey.get(m[1]!) ?? [];
        list.push({ header: h, row: y });
        byKey.set(m[1]!, list);
      }
    });
    const shared = [...byKey.values()].filter((l) => l.length >= 2 && new Set(l.map((e) => lines[e.header])).size === l.length);
    for (let n = 0; n < draws; n++) {
      const r = rng(hash(`${seed}${src.name}:section-key#${n}`));
      const group = pick(r, shared);
      if (!group) break;
      const at = pick(r, group)!;
      const line = edited(lines[at.row]!, r);
      if (line === lines[at.row]) continue;
      const mark = `${src.comment} ${pick(r, WORDINGS)}`;
      const shownDown = r() < 0.5;
      const update = shownDown
        ? [...lines.slice(at.header, at.row), line, mark]
        : [lines[at.header]!, mark, line, mark];
      const expected = [...lines.slice(0, at.row), line, ...lines.slice(at.row + 1)];
      out.push({ name: `${src.name} #${n}`, code: lines.join('\n') + '\n', update: update.join('\n'), expected: expected.join('\n') + '\n' });
    }
  }
  return out;
}
