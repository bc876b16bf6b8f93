// Resource ids whose string order is creation order, so an LMDB range over the ids is a listing
// in creation order (pagination with `after` is a key range, no secondary index needed).
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let seq = 0;

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

function randomSuffix(n: number): string {
  const bytes = randomBytes(n);
  let s = '';
  for (const b of bytes) s += ALPHABET[b % 36];
  return s;
}

/** `<prefix><time:9><seq:4><random:8>`; monotonic within a process even if the wall clock steps back. */
export function sortableId(prefix: string): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    seq = 0;
  } else {
    seq++;
  }
  return prefix + lastMs.toString(36).padStart(9, '0') + seq.toString(36).padStart(4, '0') + randomSuffix(8);
}

/** Longest id a lookup takes. Ours are under 40 characters; a longer one cannot exist, and LMDB
 *  refuses keys past ~2 KB (as an exception, not a miss), so lookups answer "not found" first. */
export const MAX_ID_LENGTH = 256;

export function isStorableId(id: string): boolean {
  return id.length <= MAX_ID_LENGTH;
}

/** Random id for per-request records (`batch_req_…`, `req_…`), where order does not matter. */
export function randomId(prefix: string, length = 24): string {
  return prefix + randomSuffix(length);
}
