// Hunk labels between out-of-order hunks (branch label): a model that jumps around a file often
// heads each hunk with a short comment naming where it goes — `// code():`, `// Display:`,
// `# argparse:`, `# imports` — after a blank line, with no marker. Read as content, the label and
// the hunk after it are glued onto the hunk before. location-comments.ts reads such a label as a
// separator: a name with `()` that the original defines, a name and a colon the original uses, or
// the plural of the keyword the next line opens with. A new comment above new code stays.
import { describe, it } from 'vitest';
import { mergedEverywhere } from './judged.js';

const errors = [
  'pub enum ApiError {',
  '    NotFound,',
  '    Conflict(String),',
  '    Internal(String),',
  '}',
  '',
  'impl ApiError {',
  '    pub fn code(&self) -> &\'static str {',
  '        match self {',
  '            ApiError::NotFound => "not_found",',
  '            ApiError::Conflict(_) => "conflict",',
  '            ApiError::Internal(_) => "internal",',
  '        }',
  '    }',
  '',
  '    pub fn status(&self) -> u16 {',
  '        match self {',
  '            ApiError::NotFound => 404,',
  '            ApiError::Conflict(_) => 409,',
  '            ApiError::Internal(_) => 500,',
  '        }',
  '    }',
  '}',
  '',
].join('\n');

const script = [
  'import argparse',
  'import csv',
  'import io',
  'import sys',
  '',
  '',
  'def parse_args(argv):',
  '    p = argparse.ArgumentParser()',
  '    p.add_argument("--bucket", required=True)',
  '    p.add_argument("--dry-run", action="store_true")',
  '    p.add_argument("-v", "--verbose", action="store_true")',
  '    return p.parse_args(argv)',
  '',
  '',
  'def main(argv=None):',
  '    args = parse_args(sys.argv[1:] if argv is None else argv)',
  '    body = to_csv(rows(args))',
  '    upload(args.bucket, body)',
  '    return 0',
  '',
].join('\n');

describe('hunk labels between out-of-order hunks (label)', () => {
  it('`// code():` and `// status():` head match-arm hunks given after the enum hunk', () => {
    const update = [
      '// in the enum:',
      '    Conflict(String),',
      '    TooLarge { limit: usize },',
      '    Internal(String),',
      '',
      '// status():',
      '            ApiError::Conflict(_) => 409,',
      '            ApiError::TooLarge { .. } => 413,',
      '',
      '// code():',
      '            ApiError::Conflict(_) => "conflict",',
      '            ApiError::TooLarge { .. } => "too_large",',
      '',
    ].join('\n');
    const expected = errors
      .replace('    Conflict(String),\n', '    Conflict(String),\n    TooLarge { limit: usize },\n')
      .replace('            ApiError::Conflict(_) => 409,\n', '            ApiError::Conflict(_) => 409,\n            ApiError::TooLarge { .. } => 413,\n')
      .replace('            ApiError::Conflict(_) => "conflict",\n', '            ApiError::Conflict(_) => "conflict",\n            ApiError::TooLarge { .. } => "too_large",\n');
    mergedEverywhere(errors, update, expected);
  });

  it('`# argparse:` and `# imports` head hunks given after the function they serve', () => {
    const update = [
      'def main(argv=None):',
      '    args = parse_args(sys.argv[1:] if argv is None else argv)',
      '    body = to_csv(rows(args))',
      '    if args.gzip:',
      '        body = gzip.compress(body)',
      '    upload(args.bucket, body)',
      '',
      '# argparse:',
      '    p.add_argument("--dry-run", action="store_true")',
      '    p.add_argument("--gzip", action="store_true")',
      '',
      '# imports',
      'import csv',
      'import gzip',
      'import io',
      '',
    ].join('\n');
    const expected = script
      .replace('import csv\n', 'import csv\nimport gzip\n')
      .replace('    p.add_argument("--dry-run", action="store_true")\n', '    p.add_argument("--dry-run", action="store_true")\n    p.add_argument("--gzip", action="store_true")\n')
      .replace('    upload(args.bucket, body)\n', '    if args.gzip:\n        body = gzip.compress(body)\n    upload(args.bucket, body)\n');
    mergedEverywhere(script, update, expected);
  });

  it('control: a new comment above new code after a blank line stays', () => {
    const update = [
      '# ... existing code ...',
      '    upload(args.bucket, body)',
      '    return 0',
      '',
      '',
      '# helpers:',
      'def rows(args):',
      '    return []',
      '',
    ].join('\n');
    const expected = `${script}\n\n# helpers:\ndef rows(args):\n    return []\n`;
    mergedEverywhere(script, update, expected);
  });
});
