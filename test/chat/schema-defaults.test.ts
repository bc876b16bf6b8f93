import { describe, expect, it } from 'vitest';
import { closeObjectSchemas, grammarSchema, MAX_SCHEMA_DEPTH } from '../../src/chat/schema-defaults.js';
import { ApiError } from '../../src/errors.js';

describe('closeObjectSchemas', () => {
  it('closes objects that list properties, at every depth, without touching the input', () => {
    const input = {
      type: 'object',
      properties: {
        a: { type: 'object', properties: { x: { type: 'integer' } } },
        b: { type: 'array', items: { type: 'object', properties: { y: { type: 'string' } } } },
        c: { anyOf: [{ type: 'object', properties: { z: { type: 'null' } } }, { type: 'string' }] },
      },
      $defs: { D: { type: 'object', properties: { w: { type: 'boolean' } } } },
    };
    const copy = JSON.parse(JSON.stringify(input)) as unknown;
    const out = closeObjectSchemas(input) as any;
    expect(input).toEqual(copy);
    expect(out.additionalProperties).toBe(false);
    expect(out.properties.a.additionalProperties).toBe(false);
    expect(out.properties.b.items.additionalProperties).toBe(false);
    expect(out.properties.c.anyOf[0].additionalProperties).toBe(false);
    expect(out.properties.c.anyOf[1]).toEqual({ type: 'string' });
    expect(out.$defs.D.additionalProperties).toBe(false);
  });

  it('keeps an explicit additionalProperties and leaves property-less objects open', () => {
    expect(closeObjectSchemas({ type: 'object', properties: {}, additionalProperties: true })).toEqual({ type: 'object', properties: {}, additionalProperties: true });
    expect(closeObjectSchemas({ type: 'object' })).toEqual({ type: 'object' });
    expect(closeObjectSchemas({ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'object', properties: { k: {} } } } } })).toEqual({
      type: 'object',
      properties: { m: { type: 'object', additionalProperties: { type: 'object', properties: { k: {} }, additionalProperties: false } } },
      additionalProperties: false,
    });
  });

  it('grammarSchema refuses nesting past the compiler\'s limit with a 400 naming the field, without recursing', () => {
    const nest = (levels: number): unknown => {
      let v: unknown = 0;
      for (let i = 0; i < levels; i++) v = [v];
      return v;
    };
    expect(grammarSchema({ const: nest(MAX_SCHEMA_DEPTH - 1) }, 'response_format')).toEqual({ const: nest(MAX_SCHEMA_DEPTH - 1) });
    for (const levels of [MAX_SCHEMA_DEPTH, 100_000]) {
      let err: unknown;
      try {
        grammarSchema({ const: nest(levels) }, 'tools');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).param).toBe('tools');
    }
  });
});
