// The error catalogue is the one source of statuses and wire types: every code renders in each
// envelope with its catalogue entry, and the README's error table documents exactly these codes
// with the same statuses and types, so a new code cannot land undocumented.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ApiError, ERROR_CATALOGUE, anthropicErrorBody, openaiErrorBody, predictErrorBody, toApiError, type ErrorCode,
} from '../../src/errors.js';

const codes = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

interface ReadmeRow { status: string; openaiType: string; anthropicType: string }

function readmeErrorTable(): Map<string, ReadmeRow> {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const rows = new Map<string, ReadmeRow>();
  for (const line of readme.split('\n')) {
    const m = /^\| `([a-z_]+)` \| ([^|]+) \| `([a-z_]+)` \| `([a-z_]+)` \|/.exec(line);
    if (m) rows.set(m[1]!, { status: m[2]!.trim(), openaiType: m[3]!, anthropicType: m[4]! });
  }
  return rows;
}

describe('error catalogue', () => {
  it.each(codes)('%s renders in every envelope with its catalogue entry', (code) => {
    const entry = ERROR_CATALOGUE[code];
    expect(entry.status).toBeGreaterThanOrEqual(400);
    expect(entry.status).toBeLessThan(600);
    const err = new ApiError(code, `message for ${code}`, { param: 'field' });
    expect(err.status).toBe(entry.status);
    expect(openaiErrorBody(err)).toEqual({
      error: { code, message: `message for ${code}`, type: entry.openaiType, param: 'field' },
    });
    expect(anthropicErrorBody(err, 'req_1')).toEqual({
      type: 'error', error: { type: entry.anthropicType, code, message: `message for ${code}` }, request_id: 'req_1',
    });
    expect(predictErrorBody(err)).toEqual({ detail: `message for ${code}` });
  });

  it('the README error table lists exactly the catalogue, with its statuses and types', () => {
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
  });
});
