// Snippets that leave blocks open: the heads an update opens with (a path to the edit, never
// closed) do not delete the original lines between them (open-heads.ts), and a new block the update
// stops inside is closed with the word the original closes such blocks with (keyword-blocks.ts via
// unclosed-tail.ts). Inputs are new, in TypeScript, C# and Lua.
import { describe, expect, it } from 'vitest';
import { mergeApply } from '../../src/apply/merge.js';

const ts = [
  "import { hypot } from './math';",
  '',
  'export namespace Geo {',
  '  /** A point in the plane. */',
  '  @sealed',
  '  export class Point {',
  '    constructor(readonly x: number, readonly y: number) {}',
  '',
  '    norm(): number {',
  '      return hypot(this.x, this.y);',
  '    }',
  '  }',
  '}',
  '',
].join('\n');

const csharp = [
  'using Microsoft.AspNetCore.Mvc;',
  '',
  'namespace Shop.Api',
  '{',
  '    /// <summary>Orders endpoints.</summary>',
  '    [ApiController]',
  '    public class OrdersController : ControllerBase',
  '    {',
  '        [HttpGet]',
  '        public IActionResult List()',
  '        {',
  '            return Ok();',
  '        }',
  '    }',
  '}',
  '',
].join('\n');

const lua = [
  'local Queue = {}',
  '',
  'function Queue.push(q, item)',
  '  q.items[#q.items + 1] = item',
  'end',
  '',
  'function Queue.size(q)',
  '  return #q.items',
  'end',
  '',
  'return Queue',
  '',
].join('\n');

describe('heads a snippet opens with and leaves open', () => {
  it('keeps the doc comment and decorator between a namespace and its class (TypeScript)', () => {
    const update = 'export namespace Geo {\n  export class Point {\n    // ... existing code ...\n    norm(): number {\n      return Math.hypot(this.x, this.y);\n    // ... existing code ...\n';
    const r = mergeApply({ instruction: null, code: ts, update }, 'fast');
    expect(r.content).toBe(ts.replace('return hypot(', 'return Math.hypot('));
    // Kept by the merge itself, not put back by the no-loss pass.
    expect(r.report.restored).toEqual([]);
  });
  it('keeps the summary and attribute between an Allman namespace and its class (C#)', () => {
    const update = 'namespace Shop.Api\n{\n    public class OrdersController : ControllerBase\n    {\n        public IActionResult List()\n        {\n            return Ok(Array.Empty<string>());\n';
    const r = mergeApply({ instruction: null, code: csharp, update }, 'fast');
    expect(r.content).toBe(csharp.replace('return Ok();', 'return Ok(Array.Empty<string>());'));
    expect(r.report.restored).toEqual([]);
  });
});

describe('a new block the snippet stops inside, in a language whose blocks end with a word', () => {
  it('writes the ends of a new function and its loop (Lua)', () => {
    const update = 'function Queue.size(q)\n  return #q.items\nend\n\nfunction Queue.drain(q, fn)\n  for _, item in ipairs(q.items) do\n    fn(item)\n';
    const r = mergeApply({ instruction: null, code: lua, update }, 'fast');
    expect(r.content).toBe(lua.replace('return Queue', 'function Queue.drain(q, fn)\n  for _, item in ipairs(q.items) do\n    fn(item)\n  end\nend\n\nreturn Queue'));
  });
});
