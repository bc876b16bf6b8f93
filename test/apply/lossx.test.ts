// Silent losses of the held-out round be-bi (docs/apply.md, branch `lossx`, second session).
// 1. Bare dots as a list element in a map written Lisp-style (`{:http {:port 3000 ...}`, `:db { ... }`):
//    the collapsed block stands for the original rows its bracket spans (collapsed-blocks.ts
//    huggedBlock); one left unexpanded is a marker to the no-loss check, not an edit (loss.ts).
//    Revealed by bi clj02 and 26r clj01; the guards are Clojure, EDN and Racket probes.
// 2. A new Expecto test after a shown one, before a test whose last line it repeats: `testCase
//    "name"` names a test (block-names.ts BARE_TEST), so the new one is no edit of the next.
//    Revealed by bi fs02; the guard is an F# probe, with a test renamed in place as the control.
// 3. Hunks out of file order with no marker between the imports and a function far below: the
//    segment is cut at the jump (hunk-order.ts splitAtJumps), and a gap whose lines another hunk
//    shows is not removed by adjacency (loss.ts). Revealed by bg go05; the guards are TypeScript
//    and Python probes, with a helper removed by adjacency as the control.
import { beforeAll, describe, expect, it } from 'vitest';
import { judged } from './judged.js';
import { mergedCase, readCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const probe = (name: string) => readCase(`probes-lossx/${name}`);
const merged = (name: string): void => mergedCase(`probes-lossx/${name}`);

describe('silent losses of the round be-bi (lossx)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('expands dots inside Lisp-style maps and forms to the rows they stand for', () => {
    merged('clj11-hugged-maps-dots-after-first-key');
    merged('edn11-deps-hugged-dots-then-new-key');
    merged('rkt11-define-collapsed-dots-next-edited');
  });

  it('counts an unexpanded dots element as a marker, not as the edit of the rows it stands for', () => {
    const p = probe('clj11-hugged-maps-dots-after-first-key');
    const lossy = p.expected.replace(/ {2}\{:server \{:port 8080\n[^]*?:leeway 30\}\n/, '  {:server {:port 8080 ...}\n   :auth {...}\n');
    expect(lossy).not.toBe(p.expected);
    expect(judged(p.code, p.update, lossy, p.expected, p.instruction).length).toBeGreaterThan(0);
  });

  it('inserts a new Expecto test between near-identical ones instead of replacing the next', () => {
    merged('fs11-new-async-test-between-similar');
  });

  it('still renames a test shown in place between its neighbours (control)', () => {
    merged('fs12-control-test-renamed-in-place');
  });

  it('puts hunks written out of file order in order, keeping the code between them', () => {
    merged('ts11-hunks-out-of-order-const-between');
    merged('py11-hunks-out-of-order-constant-between');
  });

  it('does not license a gap by adjacency when another hunk shows its lines', () => {
    const p = probe('py11-hunks-out-of-order-constant-between');
    // main's output: the second hunk placed at the end, `CONFIG_PATH` and `load` gone between the first hunk's anchors.
    const lossy = 'import os\nimport json\nimport tempfile\n\ndef save(settings):\n    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(CONFIG_PATH) or ".")\n    with os.fdopen(fd, "w") as f:\n        json.dump(settings.data, f)\n    os.replace(tmp, CONFIG_PATH)\n\nclass Settings:\n    def __init__(self, data):\n        self.data = dict(data)\n';
    const code = p.code.split('\n');
    const lost = judged(p.code, p.update, lossy, p.expected, p.instruction).map((j) => code[j]);
    expect(lost).toContain('CONFIG_PATH = os.environ.get("APP_CONFIG", "config.json")');
    expect(lost).toContain('def load():');
  });

  it('still removes a helper the update shows its neighbours adjacent around (control)', () => {
    merged('go11-control-helper-removed-by-adjacency');
  });
});
