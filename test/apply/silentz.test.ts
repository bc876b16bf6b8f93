// Branch silentz: alignment a writer lost. An update that copies original lines as context with their
// aligned columns collapsed keeps the original's spacing (kept-alignment.ts); a run that lost its
// longest member, and an instruction about formatting, keep the update's. Guards in Go and INI,
// not the HCL and TypeScript cases that revealed the class.
import { describe, expect, it } from 'vitest';
import { lines } from './judged.js';
import { mergeApply } from '../../src/apply/merge.js';

describe('silentz: collapsed alignment in context lines', () => {
  const original = lines([
    'package limits', '',
    'const (', '\tMaxBodyBytes  = 1 << 20', '\tMaxHeaderKB   = 16', '\tReadTimeoutS  = 15', '\tWriteTimeoutS = 30', ')', '',
    'func Clamp(n, max int) int {', '\tif n > max {', '\t\treturn max', '\t}', '\treturn n', '}',
  ]);

  it('go: a const block copied unaligned around one edited value keeps its columns', () => {
    const update = lines(['const (', '\tMaxBodyBytes = 1 << 20', '\tMaxHeaderKB = 32', '\tReadTimeoutS = 15', '\tWriteTimeoutS = 30', ')', '// ...']);
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const r = mergeApply({ code: original, update, instruction: 'allow 32 KB of headers' }, mode);
      expect(r.content).toBe(original.replace('\tMaxHeaderKB   = 16', '\tMaxHeaderKB = 32'));
    }
  });

  it('go: an instruction about formatting keeps the update\'s spacing', () => {
    const update = lines(['const (', '\tMaxBodyBytes = 1 << 20', '\tMaxHeaderKB = 16', '\tReadTimeoutS = 15', '\tWriteTimeoutS = 30', ')', '// ...']);
    const r = mergeApply({ code: original, update, instruction: 'drop the manual alignment of the limits' }, 'fast');
    expect(r.content).toContain('\tMaxBodyBytes = 1 << 20\n\tMaxHeaderKB = 16\n');
  });

  it('ini: a run that lost its longest key is realigned on purpose', () => {
    const ini = lines(['[smtp]', 'host             = mail.example.com', 'port             = 587', 'starttls_timeout = 10', 'user             = mailer', '', '[queue]', 'size = 100']);
    const update = lines(['[smtp]', 'host = mail.example.com', 'port = 587', 'user = mailer', '', '; ... [queue] unchanged ...']);
    const r = mergeApply({ code: ini, update, instruction: 'remove starttls_timeout' }, 'fast');
    expect(r.content).toContain('host = mail.example.com\n');
    expect(r.content).not.toContain('host             = mail.example.com');
  });
});
