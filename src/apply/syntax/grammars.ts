// Tree-sitter grammars for the syntax-aware merge: web-tree-sitter (WASM runtime) plus prebuilt
// WASM grammars shipped in npm packages, so nothing is compiled at install time. Each grammar is
// loaded once per thread (apply merges run in piscina workers, each with its own WASM instance),
// on first use. The merge itself is synchronous: it only uses grammars already loaded, and falls
// back to line alignment for the others (`ensureGrammar` is awaited before a merge by the worker).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Language, Parser } from 'web-tree-sitter';

export type LanguageId =
  | 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'rust' | 'java' | 'c' | 'cpp' | 'csharp'
  | 'ruby' | 'php' | 'kotlin' | 'swift' | 'css' | 'bash' | 'yaml';

/** Which npm package ships each grammar (versions pinned in package.json; all load in web-tree-sitter 0.26.3). */
const GRAMMAR_FILES: Record<LanguageId, [pkg: string, file: string]> = {
  typescript: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-typescript.wasm'],
  tsx: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-tsx.wasm'],
  javascript: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-javascript.wasm'],
  python: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-python.wasm'],
  go: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-go.wasm'],
  rust: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-rust.wasm'],
  java: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-java.wasm'],
  c: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-c.wasm'],
  cpp: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-cpp.wasm'],
  csharp: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-c_sharp.wasm'],
  ruby: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-ruby.wasm'],
  php: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-php.wasm'],
  swift: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-swift.wasm'],
  css: ['@repomix/tree-sitter-wasms', 'out/tree-sitter-css.wasm'],
  bash: ['@vscode/tree-sitter-wasm', 'wasm/tree-sitter-bash.wasm'],
  kotlin: ['@tree-sitter-grammars/tree-sitter-kotlin', 'tree-sitter-kotlin.wasm'],
  yaml: ['@tree-sitter-grammars/tree-sitter-yaml', 'tree-sitter-yaml.wasm'],
};

export const LANGUAGES = Object.keys(GRAMMAR_FILES) as LanguageId[];

const require = createRequire(import.meta.url);

export function grammarPath(id: LanguageId): string {
  const [pkg, file] = GRAMMAR_FILES[id];
  return join(dirname(require.resolve(`${pkg}/package.json`)), file);
}

let runtime: Promise<void> | null = null;
const loading = new Map<LanguageId, Promise<Parser | null>>();
const ready = new Map<LanguageId, Parser | null>();
/** Load time per grammar in this thread (ms), for the benchmark and the log. */
export const loadMs = new Map<LanguageId, number>();

/** Loads (once) and returns the parser for `id`; null when the grammar cannot be loaded (the merge then works on lines). */
export function ensureGrammar(id: LanguageId): Promise<Parser | null> {
  const pending = loading.get(id);
  if (pending) return pending;
  const p = (async () => {
    const t0 = performance.now();
    try {
      runtime ??= Parser.init();
      await runtime;
      const lang = await Language.load(grammarPath(id));
      const parser = new Parser();
      parser.setLanguage(lang);
      ready.set(id, parser);
      return parser;
    } catch (err) {
      console.error(JSON.stringify({ ts: new Date().toISOString(), level: 'warn', msg: 'tree-sitter grammar not loaded; apply falls back to line alignment', language: id, error: String(err) }));
      ready.set(id, null);
      return null;
    } finally {
      loadMs.set(id, performance.now() - t0);
    }
  })();
  loading.set(id, p);
  return p;
}

/** The parser for `id` when its grammar has already been loaded in this thread; null otherwise. */
export function loadedParser(id: LanguageId): Parser | null {
  return ready.get(id) ?? null;
}

/** Loads every grammar (tests, benchmarks). */
export async function ensureAllGrammars(): Promise<void> {
  await Promise.all(LANGUAGES.map((id) => ensureGrammar(id)));
}

/** A few constructs of several languages: each grammar reads part of it and recovers from the rest. */
const WARM_UP_TEXT = 'def f(a):\n    return a\n\nfunction g(b) {\n  return [b, 1];\n}\n\nclass C {\n  m() {}\n}\n';

/**
 * Loads every grammar and parses a line with each, so that V8 has compiled the parse path before
 * the first request in that language (an apply worker thread calls this when it starts; about
 * 90 MB of memory per thread for the 17 grammars).
 */
export async function preloadGrammars(): Promise<void> {
  await ensureAllGrammars();
  for (const id of LANGUAGES) loadedParser(id)?.parse(WARM_UP_TEXT)?.delete();
}
