// Documents (branch `mdx`): a Markdown heading heads the lines up to the next heading of the same or
// a higher level (flat-sections.ts reads `#`…`######` at depths -6…-1), so a heading shown alone
// before a marker and a new section after it leaves the section's closing fence where it was, and
// a hunk whose lines repeat in look-alike subsections stays under the subsection it shows. The
// controls: `# …` comments of a shell script head nothing, a heading renamed in place is an edit.
import { describe, expect, it } from 'vitest';
import { headDepth } from '../../src/apply/flat-sections.js';
import { splitLines } from '../../src/apply/lines.js';
import { caseDir, mergedCase } from './bench-case.js';
import { lines } from './judged.js';

describe('Markdown headings head their sections', () => {
  it('a heading shown alone, a marker, then a new section keeps the closing fence (26r md02)', () => {
    mergedCase(caseDir('external-2026-11-26r', 'md02-readme-insert-section'));
  });

  it('a new subsection after one of many look-alike subsections (26m md02)', () => {
    mergedCase(caseDir('external-2026-11-26m', 'md02-anchor-new-code-marker'));
  });

  it('the same shapes, new: a section after a fenced one, a subsection after a ~~~ fenced one', () => {
    mergedCase('probes-mdx/md06-new-section-after-fenced-section');
    mergedCase('probes-mdx/md08-new-subsection-after-fenced-subsection');
  });

  it('a table row after a marker is not carried into the section shown before the marker (25b md01)', () => {
    mergedCase(caseDir('external-2026-11-25b', 'md01-readme-sections'));
  });

  it('heading levels: `#` … `######` at -6 … -1, body lines at their indentation, fenced `#` lines are code', () => {
    const l = splitLines(lines(['# Title', '', '## Install', '', '```bash', '# a comment', 'make', '```', '', '### Linux', 'text']));
    expect([0, 2, 5, 6, 9, 10].map((y) => headDepth(l, y))).toEqual([-6, -5, 0, 0, -4, 0]);
  });

  it('control: `# …` comments of a shell script are no headings', () => {
    const l = splitLines(lines(['#!/bin/sh', '# Build', '', 'make clean', 'make all', '', '# Test', '', 'make test']));
    expect([1, 6].map((y) => headDepth(l, y))).toEqual([0, 0]);
    mergedCase('probes-mdx/sh01-hash-comments-not-headings');
  });

  it('controls: a heading renamed in place; a subheading edited under the parent the update shows', () => {
    mergedCase('probes-mdx/md04-heading-renamed-in-place');
    mergedCase('probes-mdx/md01-configure-under-second-parent');
    mergedCase('probes-mdx/md02-row-in-second-table');
  });
});
