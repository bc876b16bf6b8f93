// JSON Schema defaults for constrained decoding. An object schema that lists its properties but
// says nothing about others is closed (additionalProperties: false) before it becomes a grammar:
// otherwise the grammar admits any extra key, and a weak model can spend its whole budget inventing
// keys instead of finishing the object. A schema that states additionalProperties keeps it.

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
