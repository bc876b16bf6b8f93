// The query of the OpenAI list endpoints (files, batches): `limit` and the `after` cursor.
import { apiError } from '../errors.js';
import { MAX_ID_LENGTH } from '../store/ids.js';

export interface ListQuery {
  limit: number;
  /** Id of the last item of the previous page; absent for the first page. */
  after?: string;
}

export function parseListQuery(q: URLSearchParams, defaultLimit: number, maxLimit: number): ListQuery {
  const limitRaw = q.get('limit');
  const limit = limitRaw === null ? defaultLimit : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) throw apiError('field_requirement', { field: 'limit', requirement: `an integer from 1 to ${maxLimit}` }, 'limit');
  // `after=` with no value is a client that had no cursor yet (the first page), not a cursor
  // that sorts before every id and would make the listing look empty.
  const after = q.get('after') || undefined;
  if (after !== undefined && after.length > MAX_ID_LENGTH) throw apiError('field_requirement', { field: 'after', requirement: `the id of a listed object (at most ${MAX_ID_LENGTH} characters)` }, 'after');
  return { limit, after };
}
