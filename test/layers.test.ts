// The import rule of docs/architecture.md, enforced: each part of src/ may import only the parts
// below it, and no two parts import each other (directly or around a cycle). A new import that
// breaks the rule fails here with the file and the import.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '..', 'src');

/** Leaves: used by any layer, import only other leaves. */
const LEAVES = ['errors', 'log', 'config', 'paths', 'pool-entry', 'metrics', 'process-info', 'abort-watch', 'microtask', 'intake', 'tokenizer', 'gguf', 'assets'];
const SERVICES = ['chat', 'apply', 'batch', 'predict', 'store', 'completions', 'embeddings'];

/** What each part may import besides itself and the leaves. */
const ALLOWED: Record<string, string[]> = {
  native: [],
  engine: ['native'],
  ...Object.fromEntries(SERVICES.map((s) => [s, ['engine', 'native', ...SERVICES.filter((o) => o !== s)]])),
  http: [],
  api: ['http', 'engine', 'native', ...SERVICES],
  'model-maker': [],
  peer: [],
  server: ['api', 'http', 'engine', 'native', 'model-maker', ...SERVICES],
  cli: ['*'],  // the command line, src/bench (svc bench) included
};

function partOf(file: string): string {
  const rel = relative(SRC, file);
  const top = rel.split('/')[0]!.replace(/\.ts$/, '');
  return top === 'bench' ? 'cli' : top;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

interface Edge { from: string; to: string; file: string; spec: string }

function importEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g)) {
      const target = resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts'));
      const from = partOf(file);
      const to = partOf(target);
      if (from !== to) edges.push({ from, to, file: relative(SRC, file), spec: m[1]! });
    }
  }
  return edges;
}

describe('layers (docs/architecture.md)', () => {
  const edges = importEdges();

  it('finds the imports it checks', () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(edges.some((e) => e.from === 'api' && e.to === 'chat')).toBe(true);
  });

  it('every import goes down the layers or to a leaf', () => {
    const broken: string[] = [];
    for (const e of edges) {
      const allowed = LEAVES.includes(e.from)
        ? LEAVES.includes(e.to)
        : LEAVES.includes(e.to) || (ALLOWED[e.from] ?? []).some((a) => a === '*' || a === e.to);
      if (!allowed) broken.push(`${e.file} imports ${e.spec} (${e.from} -> ${e.to})`);
    }
    expect(broken).toEqual([]);
  });

  it('no two parts depend on each other, directly or around a cycle', () => {
    const graph = new Map<string, Set<string>>();
    for (const e of edges) {
      if (!graph.has(e.from)) graph.set(e.from, new Set());
      graph.get(e.from)!.add(e.to);
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (n: string, path: string[]): void => {
      if (state.get(n) === 'done') return;
      if (state.get(n) === 'open') {
        cycles.push([...path.slice(path.indexOf(n)), n].join(' -> '));
        return;
      }
      state.set(n, 'open');
      for (const m of graph.get(n) ?? []) visit(m, [...path, n]);
      state.set(n, 'done');
    };
    for (const n of graph.keys()) visit(n, []);
    expect(cycles).toEqual([]);
  });
});
