// A small JSON-schema validator for the subset the grammar compiles (written independently of the
// C++ matcher, so the tests do not share its mistakes): type (incl. lists, nullable), enum, const,
// properties / required / additionalProperties, items / minItems / maxItems, minLength /
// maxLength (code points), pattern (JavaScript's own RegExp, u flag), format (date, time,
// date-time, duration, uuid, ipv4, ipv6 (node:net), hostname, email), anyOf, oneOf (exactly
// one), allOf, $ref to local JSON pointers.

import { isIPv6 } from 'node:net';

export type Schema = boolean | { [key: string]: unknown };

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function resolvePointer(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#')) throw new Error(`non-local $ref ${ref}`);
  let cur: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    cur = (cur as Record<string, unknown>)[part];
    if (cur === undefined) throw new Error(`unresolved $ref ${ref}`);
  }
  return cur as Schema;
}

/** Returns null when v is valid, else a message naming the failing path. */
const inRange = (x: string, lo: number, hi: number): boolean => Number(x) >= lo && Number(x) <= hi;
const isDate = (v: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  return m !== null && inRange(m[2]!, 1, 12) && inRange(m[3]!, 1, 31);
};
const isTime = (v: string): boolean => {
  const m = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(z|[+-](\d{2}):(\d{2}))$/i.exec(v);
  return m !== null && inRange(m[1]!, 0, 23) && inRange(m[2]!, 0, 59) && inRange(m[3]!, 0, 60) &&
    (m[6] === undefined || (inRange(m[6], 0, 23) && inRange(m[7]!, 0, 59)));
};
/** The formats the grammar enforces, checked the way a validator reads RFC 3339 / 4122 / 5321. */
const FORMATS: Record<string, (v: string) => boolean> = {
  date: isDate,
  time: isTime,
  'date-time': (v) => {
    const t = v.search(/[Tt]/);
    return t === 10 && isDate(v.slice(0, t)) && isTime(v.slice(t + 1));
  },
  uuid: (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v),
  ipv4: (v) => {
    const parts = v.split('.');
    return parts.length === 4 && parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255);
  },
  // RFC 5321: a dot-atom local part (no leading, trailing or doubled dot), a dotted domain
  email: (v) => /^[^\s@.]+(\.[^\s@.]+)*@[^\s@.]{1,63}(\.[^\s@.]{1,63})+$/.test(v),
  ipv6: (v) => isIPv6(v),
  hostname: (v) => v.split('.').every((l) => /^[A-Za-z0-9-]{1,63}$/.test(l) && !l.startsWith('-') && !l.endsWith('-')),
  duration: (v) => /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/.test(v),
};

/** A finite number's shortest decimal text as digits × 10^exp (trailing zeros moved into exp). */
function decimal(x: number): { digits: bigint; exp: number } {
  const m = /^-?(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(String(x));
  if (!m) throw new Error(`not a finite number: ${x}`);
  let digits = BigInt(m[1]! + (m[2] ?? ''));
  let exp = Number(m[3] ?? 0) - (m[2] ?? '').length;
  while (digits !== 0n && digits % 10n === 0n) {
    digits /= 10n;
    exp++;
  }
  return { digits, exp };
}

function isMultiple(v: { digits: bigint; exp: number }, step: { digits: bigint; exp: number }): boolean {
  const e = Math.min(v.exp, step.exp);
  return (v.digits * 10n ** BigInt(v.exp - e)) % (step.digits * 10n ** BigInt(step.exp - e)) === 0n;
}

export function validate(v: unknown, schema: Schema, root: Schema = schema, path = '$'): string | null {
  if (schema === true) return null;
  if (schema === false) return `${path}: schema false`;
  const s = schema;
  if (typeof s.$ref === 'string') return validate(v, resolvePointer(root, s.$ref), root, path);
  if (Array.isArray(s.allOf)) {
    for (const sub of s.allOf as Schema[]) {
      const e = validate(v, sub, root, path);
      if (e) return e;
    }
  }
  if (Array.isArray(s.anyOf)) {
    const ok = (s.anyOf as Schema[]).some((sub) => validate(v, sub, root, path) === null);
    if (!ok) return `${path}: matches no anyOf alternative`;
  }
  if (Array.isArray(s.oneOf)) {
    const n = (s.oneOf as Schema[]).filter((sub) => validate(v, sub, root, path) === null).length;
    if (n !== 1) return `${path}: matches ${n} oneOf alternatives`;
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    return `${path}: ${JSON.stringify(v)} not in enum`;
  }
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(v)) return `${path}: not the const`;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (s.nullable === true) types.push('null');
    const t = typeOf(v);
    const ok = types.some((want) => want === t || (want === 'number' && t === 'integer'));
    if (!ok) return `${path}: ${t} is not ${types.join('|')}`;
  }
  if (typeof v === 'number') {
    if (typeof s.minimum === 'number' && v < s.minimum) return `${path}: below minimum ${s.minimum}`;
    if (typeof s.maximum === 'number' && v > s.maximum) return `${path}: above maximum ${s.maximum}`;
    if (typeof s.exclusiveMinimum === 'number' && v <= s.exclusiveMinimum) return `${path}: not above ${s.exclusiveMinimum}`;
    if (typeof s.exclusiveMaximum === 'number' && v >= s.exclusiveMaximum) return `${path}: not below ${s.exclusiveMaximum}`;
    // multipleOf, exactly in decimal, where the grammar enforces it: a step of at least 10^-16
    // whose digits (trailing zeros dropped) are below 2^24, or any step on an integer schema.
    const m = typeof s.multipleOf === 'number' ? decimal(s.multipleOf) : null;
    const enforced = m !== null && m.exp >= -16 && (m.exp >= 0 || m.digits < 2n ** 24n || s.type === 'integer');
    if (enforced && !isMultiple(decimal(v), m)) return `${path}: not a multiple of ${s.multipleOf as number}`;
  }
  if (typeof v === 'string') {
    const len = [...v].length;
    if (typeof s.minLength === 'number' && len < s.minLength) return `${path}: shorter than ${s.minLength}`;
    if (typeof s.maxLength === 'number' && len > s.maxLength) return `${path}: longer than ${s.maxLength}`;
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(v)) return `${path}: does not match ${s.pattern}`;
    if (typeof s.format === 'string' && FORMATS[s.format] && !FORMATS[s.format]!(v)) return `${path}: not a ${s.format}`;
  }
  if (Array.isArray(v)) {
    if (typeof s.minItems === 'number' && v.length < s.minItems) return `${path}: fewer than ${s.minItems} items`;
    if (typeof s.maxItems === 'number' && v.length > s.maxItems) return `${path}: more than ${s.maxItems} items`;
    if (s.items !== undefined) {
      for (let i = 0; i < v.length; i++) {
        const e = validate(v[i], s.items as Schema, root, `${path}[${i}]`);
        if (e) return e;
      }
    }
  }
  if (typeOf(v) === 'object') {
    const obj = v as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, Schema>;
    for (const req of (s.required ?? []) as string[]) {
      if (!(req in obj)) return `${path}: missing required "${req}"`;
    }
    for (const [k, val] of Object.entries(obj)) {
      if (Object.prototype.hasOwnProperty.call(props, k)) {
        const e = validate(val, props[k] as Schema, root, `${path}.${k}`);
        if (e) return e;
      } else if (s.additionalProperties !== undefined) {
        const e = validate(val, s.additionalProperties as Schema, root, `${path}.${k}`);
        if (e) return `${e} (additional property "${k}")`;
      }
    }
  }
  return null;
}
