// zod parsing with errors a client can act on: 400 invalid_request_error naming the field.
import type { z } from 'zod';
import { apiError } from '../errors.js';

/** `messages[0].content` style path for an issue. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw apiError('body_not_object');
  }
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const first = r.error.issues[0];
  if (!first) throw apiError('invalid_field', { field: 'request body', problem: 'invalid' });
  const issue = deepestIssue(first);
  const param = fieldPath(issue.path);
  throw apiError('invalid_field', { field: param || 'request body', problem: issue.message }, param || null);
}

interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
  errors?: Issue[][];
}

/** A union's "Invalid input" says nothing about what is wrong. When one of its alternatives got
 *  inside the value (a content-part array whose part lacks `text`), that alternative's issue is
 *  the one to report, with the full path; otherwise the union's own message stays. */
function deepestIssue(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || !issue.errors) return issue;
  let best: Issue | null = null;
  for (const branch of issue.errors) {
    const b = branch[0];
    if (b && b.path.length > 0 && (!best || b.path.length > best.path.length)) best = b;
  }
  if (!best) return issue;
  const inner = deepestIssue(best);
  return { ...inner, path: [...issue.path, ...inner.path] };
}
