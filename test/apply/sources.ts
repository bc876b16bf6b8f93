// The real source files generated edits are drawn from (generated.test.ts, shape-draws.ts):
// TS/JS shipped in installed npm packages and the other-language samples of the held-out corpus.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { langOf, type Lang } from './edit-gen.js';

export interface Source {
  name: string;
  lang: Lang;
  lines: string[];
}

export function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Readable JS/TS files of 50..160 lines from node_modules (no minified bundles), a fixed sample. */
export function npmSources(limit: number): Source[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 5 || found.length > 4000) return;
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.startsWith('.') || e === 'test' || e === 'tests') continue;
      const p = join(dir, e);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(p, depth + 1);
      else if (/\.(?:m?js|cjs|ts)$/.test(e) && !e.endsWith('.d.ts') && !e.endsWith('.min.js') && st.size < 40_000 && st.size > 1500) found.push(p);
    }
  };
  walk(join(PACKAGE_ROOT, 'node_modules'), 0);
  const out: Source[] = [];
  // Ordered by the path inside the package, so every checkout (whatever its directory) draws the same sample.
  const inPackage = (p: string): string => p.slice(PACKAGE_ROOT.length + 1);
  for (const p of found.sort((a, b) => hash(inPackage(a)) - hash(inPackage(b)))) {
    const text = readFileSync(p, 'utf8');
    const lines = text.replace(/\n$/, '').split('\n');
    if (lines.length < 50 || lines.length > 160 || text.includes('\r') || lines.some((l) => l.length > 160)) continue;
    out.push({ name: inPackage(p), lang: langOf(p)!, lines });
    if (out.length >= limit) break;
  }
  return out;
}

export function sampleSources(): Source[] {
  const dir = join(import.meta.dirname, 'heldout', 'src');
  return readdirSync(dir).sort().map((f) => ({ name: f.replace(/\.txt$/, ''), lang: langOf(f)!, lines: readFileSync(join(dir, f), 'utf8').replace(/\n$/, '').split('\n') }));
}
