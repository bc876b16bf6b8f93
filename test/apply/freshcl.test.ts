// Losses of the fresh round cl (branch freshcl), lossy on main:
// - a new `<dependency>` written after an anchor, before a marker, read as the edit of the original's
//   next `<dependency>` (its groupId/artifactId replaced): a leaf element is an item setting, so the
//   new item beside another item is new lines (sibling-items.ts);
// - a new `IF … END IF;` guard ending a segment before a marker: its `END IF;` is no anchor at the
//   next original block's `END IF;`, which would read the lines up to it as replaced
//   (coincident-anchors.ts closesNewHead).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const BENCH = path.resolve(__dirname, '../../bench/apply');

function load(dir: string): { code: string; update: string; expected: string; instruction: string | null } {
  const at = (f: string) => fs.readFileSync(path.join(BENCH, dir, f), 'utf8');
  return { code: at('original'), update: at('update'), expected: at('expected'), instruction: JSON.parse(at('meta.json')).instruction };
}

function run(dir: string, mode: 'fast' | 'large'): { content: string; lost: unknown[]; expected: string } {
  const c = load(dir);
  const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode);
  return { content: r.content, lost: checkLoss(c.code, c.update, c.instruction, r.content).lost, expected: c.expected };
}

describe('fresh-round cl losses (freshcl)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('new <dependency> blocks before a marker keep the next dependency block (fast and large)', () => {
    for (const mode of ['fast', 'large'] as const) {
      const r = run('external-2026-11-29cl/xml01-maven-pom-add-shedlock-dependencies', mode);
      expect(r.content).toContain('<artifactId>spring-boot-starter-test</artifactId>');
      expect(r.content).toBe(r.expected);
    }
  });

  it('a new IF guard ending a hunk before a marker keeps the statements after it (fast)', () => {
    const r = run('external-2026-11-29cl/sql01-plpgsql-minimum-redemption-guard', 'fast');
    expect(r.content).toContain('IF NOT FOUND THEN');
    expect(r.content).toBe(r.expected);
    const p = run('probes-freshcl/sql01-plpgsql-new-guard-before-lookup', 'fast');
    expect(p.content).toBe(p.expected);
  });

  it('the new guard probe keeps every original line in large', () => {
    const p = run('probes-freshcl/sql01-plpgsql-new-guard-before-lookup', 'large');
    expect(p.content).toContain('FOR UPDATE SKIP LOCKED;');
    expect(p.content).toBe(p.expected);
  });

  it('controls: a new dependency before a blank and the test-scope block stays exact', () => {
    for (const mode of ['fast', 'large'] as const) {
      const p = run('probes-freshcl/xml01-pom-new-dependencies-before-test-scope', mode);
      expect(p.content).toBe(p.expected);
    }
  });
});
