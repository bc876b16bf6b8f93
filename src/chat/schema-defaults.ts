// JSON Schema defaults for constrained decoding. An object schema that lists its properties but
// says nothing about others is closed (additionalProperties: false) before it becomes a grammar:
// otherwise the grammar admits any extra key, and a weak model can spend its whole budget inventing
// keys instead of finishing the object. A schema that states additionalProperties keeps it.
import { apiError } from '../errors.js';

/** The grammar compiler's JSON nesting limit (json_parse's max_depth in native/grammar). */
export const MAX_SCHEMA_DEPTH = 256;

const CHILD_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const CHILD_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const CHILD_ONE = ['items', 'not', 'additionalProperties', 'contains'] as const;

export function closeObjectSchemas(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjectSchemas);
  if (!schema || typeof schema !== 'object') return schema;
  const src = schema as Record<string, unknown>;
  const out: Record<string, unknown> = { ...src };
  for (const k of CHILD_MAPS) {
    const m = src[k];
    if (m && typeof m === 'object' && !Array.isArray(m)) {
      out[k] = Object.fromEntries(Object.entries(m as Record<string, unknown>).map(([n, v]) => [n, closeObjectSchemas(v)]));
    }
  }
  for (const k of CHILD_LISTS) if (Array.isArray(src[k])) out[k] = (src[k] as unknown[]).map(closeObjectSchemas);
  for (const k of CHILD_ONE) if (src[k] && typeof src[k] === 'object') out[k] = closeObjectSchemas(src[k]);
  if (src.properties && typeof src.properties === 'object' && src.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** A client's JSON schema as the grammar gets it (closed objects), or a 400 naming `param` when it
 *  nests deeper than the compiler reads: checked first and without recursion, since walking (or
 *  serialising) a value nested thousands deep would overflow the stack. */
export function grammarSchema(schema: unknown, param: string): unknown {
  assertSchemaDepth(schema, param);
  return closeObjectSchemas(schema);
}

/** A 400 naming `param` for a schema nested deeper than the grammar compiler reads (checked when a
 *  request is read, so that a tool's schema fails the same way whether or not a call is forced). */
export function assertSchemaDepth(schema: unknown, param: string): void {
  if (nestingDepth(schema) > MAX_SCHEMA_DEPTH) {
    throw apiError('json_schema_too_deep', { field: param, max: MAX_SCHEMA_DEPTH }, param);
  }
}

/** Levels of objects and arrays in a JSON value (a scalar is 0). */
function nestingDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (d + 1 > max) max = d + 1;
    if (max > MAX_SCHEMA_DEPTH) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child && typeof child === 'object') stack.push([child, d + 1]);
  }
  return max;
}
