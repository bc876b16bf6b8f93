// Seeded random JSON-schema-like documents for the compiler fuzz test: valid and invalid mixes of
// the supported and unsupported keywords, bad values, local $refs (also cyclic), odd keys.
export function makeRandomSchemas(seed: number, count: number): unknown[] {
  let state = seed >>> 0;
  const rnd = (): number => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array', 'int'] as const;
  const KEYS = ['type', 'properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems',
    'minLength', 'maxLength', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref', '$defs', 'nullable',
    'definitions', 'not', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
    'multipleOf'] as const;
  // Regular-expression pieces: joined at random they give supported, unsupported and broken patterns.
  const RE = ['a', 'b', 'é', '[a-c]', '[^x]', '\\d', '\\w', '\\s', '.', '(', ')', '(?:', '(?=', '|', '*', '+', '?',
    '{2}', '{1,3}', '{0,}', '^', '$', '\\', '\\1', '\\u00e9', '\\x41', '[', ']', '{', '-', '"', '\\n'] as const;
  const value = (d: number): unknown => {
    const r = rnd();
    if (d > 3 || r < 0.3) return pick([null, true, false, 0, -1, 1.5, 'x', '', 'a"b', 'é', 1e20]);
    if (r < 0.6) return Array.from({ length: int(0, 3) }, () => value(d + 1));
    return Object.fromEntries(Array.from({ length: int(0, 3) }, () => [pick(['a', 'b', 'c', 'type']), value(d + 1)]));
  };
  const schema = (d: number): unknown => {
    if (d > 4 || rnd() < 0.15) return pick([true, false, {}, { type: pick(TYPES) }]);
    const s: Record<string, unknown> = {};
    for (let i = int(0, 5); i > 0; i--) {
      const k = pick(KEYS);
      switch (k) {
        case 'type': s[k] = rnd() < 0.8 ? pick(TYPES) : Array.from({ length: int(0, 3) }, () => pick(TYPES)); break;
        case 'properties': case '$defs': case 'definitions':
          s[k] = Object.fromEntries(Array.from({ length: int(0, 4) }, () => [pick(['a', 'b', 'c', 'd', 'eü', 'x y']), schema(d + 1)]));
          break;
        case 'required': s[k] = Array.from({ length: int(0, 3) }, () => pick(['a', 'b', 'c', 'z'])); break;
        case 'additionalProperties': s[k] = pick([true, false, schema(d + 1)]); break;
        case 'items': s[k] = rnd() < 0.9 ? schema(d + 1) : [schema(d + 1)]; break;
        case 'minItems': case 'maxItems': case 'minLength': case 'maxLength': s[k] = pick([0, 1, 2, 3, 5, -1, 1.5, '2']); break;
        case 'enum': s[k] = Array.from({ length: int(0, 4) }, () => value(0)); break;
        case 'const': s[k] = value(0); break;
        case 'anyOf': case 'oneOf': case 'allOf': s[k] = Array.from({ length: int(0, 3) }, () => schema(d + 1)); break;
        case '$ref': s[k] = pick(['#', '#/$defs/a', '#/$defs/b', '#/definitions/a', '#/properties/a', '#/items', 'x', '#/$defs/zz']); break;
        case 'nullable': s[k] = rnd() < 0.5; break;
        case 'pattern': s[k] = rnd() < 0.9 ? Array.from({ length: int(0, 6) }, () => pick(RE)).join('') : value(0); break;
        case 'format': s[k] = pick(['date', 'time', 'date-time', 'uuid', 'ipv4', 'email', 'color', 3]); break;
        case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum': case 'multipleOf':
          s[k] = pick([0, 1, -1, 0.5, 0.01, 1e-3, 2.25, -40.25, 1e20, -1e20, 3, true, 'x']);
          break;
        default: s[k] = schema(d + 1);
      }
    }
    return s;
  };
  // One in five: a string with a random pattern and length bounds (the DFA's length-aware reach).
  const patterned = (): unknown => ({
    type: 'string',
    pattern: Array.from({ length: int(1, 8) }, () => pick(RE)).join(''),
    ...(rnd() < 0.5 ? { minLength: int(0, 6) } : {}),
    ...(rnd() < 0.5 ? { maxLength: int(0, 9) } : {}),
  });
  return Array.from({ length: count }, () => (rnd() < 0.2 ? patterned() : schema(0)));
}
