import { describe, expect, it } from 'vitest';
import { closeObjectSchemas } from '../../src/chat/schema-defaults.js';

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
});
