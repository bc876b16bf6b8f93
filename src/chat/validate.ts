// zod parsing with errors a client can act on: 400 invalid_request_error naming the field.
import type { z } from 'zod';
import { invalidRequest } from '../errors.js';

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
    throw invalidRequest('request body must be a JSON object');
  }
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  if (!issue) throw invalidRequest('invalid request body');
  const param = fieldPath(issue.path);
  throw invalidRequest(param ? `${param}: ${issue.message}` : issue.message, param || null);
}
