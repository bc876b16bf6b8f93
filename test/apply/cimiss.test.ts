// A closer after a marker, left of everything the hunk before it shows (branch cimiss): it closes a
// block opened above the snippet, so it is the original's first line back at its level after that
// hunk (enclosing-closer.ts) — not the first equal trimmed line (a nested rule's or a method's `}`),
// which dropped that inner closer and kept the block's own.
import { describe, it } from 'vitest';
import { readCase } from './bench-case.js';
import { mergedEverywhere } from './judged.js';

function exact(code: string, update: string, expected: string, mode: 'fast' | 'large'): void {
  mergedEverywhere(code, update, expected, null, [mode]);
}

const probe = (name: string): [string, string, string] => {
  const c = readCase(`probes-cimiss/${name}`);
  return [c.code, c.update, c.expected];
};

const rule = (name: string, color: string): string => `  &--${name} {\n    color: ${color};\n    border-color: ${color};\n  }\n`;

describe('a closer after a marker closes the block opened above the snippet (cimiss)', () => {
  for (const mode of ['fast', 'large'] as const) {
    it(`${mode}: an SCSS modifier edited, a marker, a column-0 \`}\`, a new rule: the last modifier keeps its \`}\``, () => {
      const code = `.tag {\n  display: inline-flex;\n  padding: 2px 6px;\n\n${rule('info', '$blue')}\n${rule('warn', '$amber')}\n${rule('error', '$red')}}\n`;
      const update = `${rule('warn', '$orange')}\n  // ...\n}\n\n.tag-list {\n  gap: 4px;\n}\n`;
      exact(code, update, `.tag {\n  display: inline-flex;\n  padding: 2px 6px;\n\n${rule('info', '$blue')}\n${rule('warn', '$orange')}\n${rule('error', '$red')}}\n\n.tag-list {\n  gap: 4px;\n}\n`, mode);
    });

    it(`${mode}: a Java method given a guard, a marker, the class's \`}\`, a new class after it`, () => {
      exact(...probe('java01-method-guard-then-class-closer-new-class'), mode);
    });

    it(`${mode}: a nested LESS rule edited, a marker, the outer \`}\`, a new rule after it`, () => {
      exact(...probe('less01-nested-rule-edit-then-outer-closer-new-rule'), mode);
    });
  }
});
