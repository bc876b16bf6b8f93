// Branch placen: where a hunk goes. A line the update shows under a head the original has is not
// matched under another head (src/apply/foreign-head.ts; revealed by set p graphql02, GraphQL);
// a comment that says the lines after it go at the file's top moves them there
// (src/apply/top-location.ts; revealed by set k php06 and p scala03, PHP and Scala).
import { describe, expect, it } from 'vitest';
import { splitLines } from '../../src/apply/lines.js';
import { buildContext, splitUpdate } from '../../src/apply/merge-context.js';
import { fastChains } from '../../src/apply/merge-fast.js';
import { largeChains } from '../../src/apply/merge-large.js';
import { topLocatedUpdate } from '../../src/apply/top-location.js';

/** Two Terraform buckets; the second has every block of the first plus `versioning`, which the update adds to the first. */
const buckets = [
  'resource "aws_s3_bucket" "uploads" {', '  bucket = "acme-uploads"', '  tags   = local.tags', '  lifecycle {', '    prevent_destroy = true', '  }',
  '  logging {', '    target_bucket = "acme-logs"', '  }', '}', '',
  'resource "aws_s3_bucket" "assets" {', '  bucket = "acme-assets"', '  region = "eu-west-1"', '  tags   = local.tags', '  force_destroy = false',
  '  lifecycle {', '    prevent_destroy = true', '  }', '  versioning {', '    enabled = true', '  }', '  logging {', '    target_bucket = "acme-logs"', '  }', '}', '',
].join('\n');
const update = [
  'resource "aws_s3_bucket" "uploads" {', '  bucket = "acme-uploads"', '  tags   = local.tags', '  lifecycle {', '    prevent_destroy = true', '  }',
  '  versioning {', '    enabled = true', '  }', '  logging {', '    target_bucket = "acme-logs"', '  }', '}', '', '# ... existing code ...',
].join('\n');

describe('placen: a line shown under a head the original has', () => {
  it('is not matched under another head, in the fast and the large chains', () => {
    const orig = splitLines(buckets);
    const ctx = buildContext(orig, splitUpdate(update, orig, buckets).segments);
    const firstBucketEnd = 10;
    for (const chains of [fastChains(ctx).chains, largeChains(ctx).chains]) {
      const rows = chains.flat().map(([, j]) => j);
      expect(rows).toContain(0);
      expect(rows.every((j) => j < firstBucketEnd)).toBe(true);
    }
  });
});

describe('placen: a note that sends the lines after it to the top of the file', () => {
  const code = 'import os\n\n\ndef main():\n    print(os.getcwd())\n';
  it('moves the hunk it introduces to the update\'s start, between markers, in the note\'s comment syntax', () => {
    const u = '# ... existing code ...\ndef main():\n    print(Path.cwd())\n\n# and at the top of the file, with the other imports:\nfrom pathlib import Path';
    expect(topLocatedUpdate(u, code)).toBe('# ... existing code ...\nfrom pathlib import Path\n# ... existing code ...\n# ... existing code ...\ndef main():\n    print(Path.cwd())');
    expect(topLocatedUpdate('def main():\n    pass\n// at the top:\nimport x\n// ...\n', code)).toBe('// ... existing code ...\nimport x\n// ... existing code ...\ndef main():\n    pass\n// ...\n');
  });
  it('leaves other comments, notes the original has, and notes with nothing after them', () => {
    for (const note of ['# at the top of the loop', '# top-level helpers', '# with the other helpers:', '# topology:']) {
      expect(topLocatedUpdate(`def main():\n    pass\n${note}\nimport x\n`, code), note).toBeNull();
    }
    expect(topLocatedUpdate('def main():\n    pass\n# at the top:\n', code)).toBeNull();
    expect(topLocatedUpdate('# at the top:\nimport os\n', `# at the top:\n${code}`)).toBeNull();
  });
});
