// A snippet segment that tree-sitter reads only inside the member wrapper (place.ts
// parsedDefinitions) must not yield definitions on the wrapper's own lines: a C++ segment opening
// with `} else {` parsed as a function named `else` starting on the shell's first line, and the
// merge threw on its row -1. Input written here.
import { beforeAll, describe, expect, it } from 'vitest';
import { mergeApply } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureGrammar } from '../../src/apply/syntax/grammars.js';
import { lines } from './judged.js';

const code = lines([
  '#include "pool.h"',
  '',
  'void Pool::Release(std::unique_ptr<Conn> conn) {',
  '    std::lock_guard<std::mutex> lock(mu_);',
  '    --in_use_;',
  '    if (conn->Broken()) {',
  '        ++stats_.discarded;',
  '        conn->Close();',
  '    } else {',
  '        idle_.push_back(std::move(conn));',
  '    }',
  '    cv_.notify_one();',
  '}',
  '',
  'std::size_t Pool::Idle() const {',
  '    std::lock_guard<std::mutex> lock(mu_);',
  '    return idle_.size();',
  '}',
]);

const update = lines([
  '// ...',
  '',
  '    } else {',
  '        conn->Touch();',
  '        idle_.push_back(std::move(conn));',
  '    }',
  '',
  '// ...',
]);

beforeAll(async () => {
  await ensureGrammar('cpp');
});

describe('member wrapper: definitions stay inside the snippet', () => {
  it('merges a C++ segment that opens with `} else {` without throwing and without loss', () => {
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const out = mergeApply({ code, update, instruction: null }, mode).content;
      expect(checkLoss(code, update, null, out).lost, mode).toEqual([]);
      expect(out, mode).toBe(code.replace('    } else {\n', '    } else {\n        conn->Touch();\n'));
    }
  });
});
