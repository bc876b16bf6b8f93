// The error catalogue is the one source of statuses, wire types and messages: every entry renders
// from its template in each envelope with its code's status and types; the README's error table
// documents exactly the codes; errors are made from the catalogue only (a scan of src/ keeps it
// so); and every engine error kind maps onto an entry.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ApiError, ERROR_CATALOGUE, ERROR_MESSAGES, anthropicErrorBody, apiError, openaiErrorBody, predictErrorBody, reviveApiError, toApiError,
  type ErrorCode, type ErrorName,
} from '../../src/errors.js';
import { EngineError, type EngineErrorKind, type EngineFault } from '../../src/engine/engine-errors.js';
import { apiErrorOf, engineApiError } from '../../src/api/engine-error-mapping.js';

const ROOT = join(__dirname, '..', '..');
const codes = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
const names = Object.keys(ERROR_MESSAGES) as ErrorName[];

interface ReadmeRow { status: string; openaiType: string; anthropicType: string }

function readmeErrorTable(): Map<string, ReadmeRow> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const rows = new Map<string, ReadmeRow>();
  for (const line of readme.split('\n')) {
    const m = /^\| `([a-z_]+)` \| ([^|]+) \| `([a-z_]+)` \| `([a-z_]+)` \|/.exec(line);
    if (m) rows.set(m[1]!, { status: m[2]!.trim(), openaiType: m[3]!, anthropicType: m[4]! });
  }
  return rows;
}

function placeholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** An entry made with a recognisable value for each placeholder (the names are checked at
 *  compile time at every call site; here any name is made dynamically). */
function sample(name: ErrorName): { err: ApiError; params: Record<string, string> } {
  const params = Object.fromEntries(placeholders(ERROR_MESSAGES[name].template).map((p) => [p, `<${p}>`]));
  const make = apiError as (n: ErrorName, p: Record<string, string>, param?: string | null) => ApiError;
  return { err: make(name, params, 'field'), params };
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

describe('error catalogue', () => {
  it.each(names)('%s renders from its template in every envelope', (name) => {
    const entry = ERROR_MESSAGES[name];
    const wire = ERROR_CATALOGUE[entry.code];
    const { err, params } = sample(name);
    let expected: string = entry.template;
    for (const [k, v] of Object.entries(params)) expected = expected.split(`{${k}}`).join(v);
    expect(err.message).toBe(expected);
    expect(err.message).not.toMatch(/\{\w+\}/);
    expect(err.code).toBe(entry.code);
    expect(err.status).toBe(wire.status);
    expect(err.param).toBe('field');
    expect(openaiErrorBody(err)).toEqual({ error: { code: entry.code, message: expected, type: wire.openaiType, param: 'field' } });
    expect(anthropicErrorBody(err, 'req_1')).toEqual({
      type: 'error', error: { type: wire.anthropicType, code: entry.code, message: expected }, request_id: 'req_1',
    });
    expect(predictErrorBody(err)).toEqual({ detail: expected });
    // Made again from its spec (as a worker sends it back): the same error.
    const again = reviveApiError(structuredClone(err.spec));
    expect([again.message, again.code, again.param, again.headers]).toEqual([err.message, err.code, err.param, err.headers]);
  });

  it('every wire code has a status in range and is used by at least one entry', () => {
    for (const code of codes) {
      expect(ERROR_CATALOGUE[code].status).toBeGreaterThanOrEqual(400);
      expect(ERROR_CATALOGUE[code].status).toBeLessThan(600);
      expect(names.filter((n) => ERROR_MESSAGES[n].code === code), code).not.toEqual([]);
    }
  });

  it('an entry names its own param when the call site names none', () => {
    expect(apiError('unknown_model', { model: 'm' }).param).toBe('model');
    expect(apiError('unknown_model', { model: 'm' }, 'other').param).toBe('other');
    expect(apiError('body_empty').param).toBeNull();
  });

  it('headers come from the entry and its params', () => {
    expect(apiError('rate_limited', { seconds: 7 }).headers).toEqual({ 'retry-after': '7' });
    expect(apiError('method_not_allowed', { method: 'PUT', path: '/v1/x', allow: 'GET, POST' }).headers).toEqual({ allow: 'GET, POST' });
    expect(apiError('queue_full', { waiting: 3 }).headers).toEqual({ 'Retry-After': '1' });
    expect(apiError('missing_api_key').headers).toEqual({ 'www-authenticate': 'Bearer' });
  });

  it('the README error table lists exactly the wire codes, with their statuses and types', () => {
    const rows = readmeErrorTable();
    expect([...rows.keys()].sort()).toEqual([...codes].sort());
    for (const code of codes) {
      const entry = ERROR_CATALOGUE[code];
      const row = rows.get(code)!;
      expect(row.status.startsWith(String(entry.status)), `${code} status`).toBe(true);
      if (entry.anthropicStatus) expect(row.status, `${code} Anthropic status`).toContain(String(entry.anthropicStatus));
      expect(row.openaiType, `${code} OpenAI type`).toBe(entry.openaiType);
      expect(row.anthropicType, `${code} Anthropic type`).toBe(entry.anthropicType);
    }
  });

  it('an unknown fault becomes internal_error without its message', () => {
    const err = toApiError(new Error('secret path /etc/x'));
    expect(err.code).toBe('internal_error');
    expect(err.message).not.toContain('/etc/x');
    expect(reviveApiError({ name: 'no_such_entry' as ErrorName, params: {}, param: null }).code).toBe('internal_error');
  });

  it('an ApiError cannot be made outside the catalogue', () => {
    const Ctor = ApiError as unknown as new (token: symbol, spec: unknown) => ApiError;
    expect(() => new Ctor(Symbol('ApiError'), { name: 'internal', params: {}, param: null })).toThrow(/apiError\(\)/);
  });

  it('TypeScript rejects a wrong parameter set (checked by the test type-check)', () => {
    const typeChecks = (): void => {
      // @ts-expect-error a placeholder is missing
      apiError('prompt_exceeds_context', { context: 1, prompt: 'the prompt' });
      // @ts-expect-error a name the template does not have
      apiError('unknown_model', { model: 'm', id: 'x' });
      // @ts-expect-error params are required where the template has placeholders
      apiError('unknown_model');
      // @ts-expect-error no such entry
      apiError('no_such_entry');
    };
    expect(typeof typeChecks).toBe('function');
  });
});

describe('errors are made from the catalogue only', () => {
  const files = sources(join(ROOT, 'src')).map((f) => ({ file: relative(ROOT, f), text: readFileSync(f, 'utf8') }));

  it('no ApiError is constructed, and no free-text helper is used, outside src/errors.ts', () => {
    const offenders = files
      .filter(({ file }) => file !== 'src/errors.ts')
      .flatMap(({ file, text }) =>
        [...text.matchAll(/new ApiError\(|\binvalidRequest\(|\bnotFound\(|ApiError\.fromSpec|new ApiError\b/g)].map((m) => `${file}: ${m[0]}`),
      );
    expect(offenders).toEqual([]);
  });

  it("invalid_field (a validator's message) is used only where a validator's finding is passed on", () => {
    // Zod issues, the apply markers parser, the multipart parser. A hand-written check gets an entry
    // of its own, so its wording lives in the catalogue.
    const allowed = ['src/chat/validate.ts', 'src/predict/request.ts', 'src/api/apply-completions.ts', 'src/http/multipart-form.ts'];
    const users = files.filter(({ text }) => text.includes("apiError('invalid_field'")).map(({ file }) => file);
    expect(users.filter((f) => !allowed.includes(f))).toEqual([]);
  });

  it('the engine and the native binding know nothing of the catalogue (no HTTP notions below the API)', () => {
    const below = files.filter(({ file }) => file.startsWith('src/engine/') || file.startsWith('src/native/'));
    expect(below.length).toBeGreaterThan(5);
    const offenders = below.filter(({ text }) => /from '\.\.\/errors\.js'|\bparam: '/.test(text)).map(({ file }) => file);
    expect(offenders).toEqual([]);
  });
});

describe('engine errors map onto the catalogue in one place', () => {
  // A Record over every kind: a new EngineError kind fails to compile here until it has a case.
  const faults: Record<EngineErrorKind, EngineFault[]> = {
    context_overflow: [
      { kind: 'context_overflow', input: 'prompt', tokens: 5000, context: 4096 },
      { kind: 'context_overflow', input: 'input', tokens: 5000, context: 4096 },
      { kind: 'context_overflow', input: 'prompt' },
    ],
    queue_full: [{ kind: 'queue_full', waiting: 8 }],
    kv_exhausted: [{ kind: 'kv_exhausted' }],
    model_unloaded: [{ kind: 'model_unloaded' }],
    load_failed: [{ kind: 'load_failed' }],
    empty_input: [{ kind: 'empty_input', input: 'prompt' }, { kind: 'empty_input', input: 'input' }],
    token_out_of_range: [{ kind: 'token_out_of_range', input: 'logit_bias', token: '99999', vocabSize: 100 }],
    invalid_argument: [{ kind: 'invalid_argument' }],
    grammar_rejected: [{ kind: 'grammar_rejected' }],
    template_rejected: [{ kind: 'template_rejected' }],
    cancelled: [{ kind: 'cancelled' }],
    internal: [{ kind: 'internal' }],
  };
  const expected: Record<EngineErrorKind, ErrorCode> = {
    context_overflow: 'context_length_exceeded',
    queue_full: 'overloaded',
    kv_exhausted: 'overloaded',
    model_unloaded: 'model_not_ready',
    load_failed: 'model_not_ready',
    empty_input: 'invalid_request_error',
    token_out_of_range: 'invalid_request_error',
    invalid_argument: 'invalid_request_error',
    grammar_rejected: 'invalid_request_error',
    template_rejected: 'invalid_request_error',
    cancelled: 'invalid_request_error',
    internal: 'internal_error',
  };

  it.each(Object.keys(faults) as EngineErrorKind[])('%s', (kind) => {
    for (const fault of faults[kind]) {
      const err = engineApiError(new EngineError(fault, 'engine words'));
      expect(err.code).toBe(expected[kind]);
      expect(err.message).not.toMatch(/\{\w+\}/);
      expect(apiErrorOf(new EngineError(fault, 'engine words')).message).toBe(err.message);
    }
  });

  it('keeps the field and the numbers a client acts on', () => {
    const prompt = engineApiError(new EngineError({ kind: 'context_overflow', input: 'prompt', tokens: 5000, context: 4096 }, 'x'));
    expect([prompt.param, prompt.message]).toEqual(['messages', expect.stringMatching(/4096 tokens.*5000 tokens/)]);
    const full = engineApiError(new EngineError({ kind: 'queue_full', waiting: 8 }, 'x'));
    expect([full.status, full.headers]).toEqual([503, { 'Retry-After': '1' }]);
    const bias = engineApiError(new EngineError({ kind: 'token_out_of_range', input: 'logit_bias', token: '99999', vocabSize: 100 }, 'x'));
    expect([bias.param, bias.message]).toEqual(['logit_bias', 'token id 99999 is not in the vocabulary (size 100)']);
    // The engine's internal details never reach the client.
    expect(engineApiError(new EngineError({ kind: 'internal' }, 'secret /etc/x')).message).not.toContain('/etc/x');
  });
});
