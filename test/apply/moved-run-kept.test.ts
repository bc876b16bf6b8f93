// Branch wrapy: wrapz's moved-edit licence, narrowed. A run wrapped in a new block with one of its
// lines edited is the original run moved (wrapped-run.ts movedEdit) only when the run keeps at least as
// many of its solid lines unchanged as it edits and a head above it is new. A block copied into a new
// block with most of it rewritten is a new block written like the old one: the original stays.
// Go and Java here, not the languages of the cases that showed the class (Dart, Go retry loop, probes).
import { describe, expect, it } from 'vitest';
import { judged, lines, mergedEverywhere } from './judged.js';

describe('wrapy: an edited run moved into a new block, read as moved only when mostly kept', () => {
  it('go: a plan printout wrapped in `if opts.Verbose`, its first line edited, a marker after the block', () => {
    const head = ['package deploy', '', 'import (', '\t"fmt"', '\t"os"', ')', '', 'func Run(plan *Plan, opts Options) error {', '\tsteps := plan.Steps()'];
    const tail = ['\tif opts.DryRun {', '\t\treturn nil', '\t}', '\treturn plan.Apply()', '}'];
    const original = lines([...head, '\tfmt.Printf("plan has %d steps\\n", len(steps))', '\tfor _, s := range steps {', '\t\tfmt.Printf("  - %s\\n", s.Name)', '\t}', ...tail]);
    const wrapped = ['\tif opts.Verbose {', '\t\tfmt.Fprintf(os.Stderr, "plan has %d steps\\n", len(steps))', '\t\tfor _, s := range steps {', '\t\t\tfmt.Printf("  - %s\\n", s.Name)', '\t\t}', '\t}'];
    const update = lines(['func Run(plan *Plan, opts Options) error {', '\tsteps := plan.Steps()', ...wrapped, '\t// ... existing code ...', '}']);
    mergedEverywhere(original, update, lines([...head, ...wrapped, ...tail]));
  });

  it('java: two calls wrapped in a try, the second edited, markers on both sides', () => {
    const head = ['public final class Exporter {', '    private final Store store;', '', '    public void export(Path dir) throws IOException {', '        Files.createDirectories(dir);'];
    const tail = ['        log.info("exported to {}", dir);', '    }', '}'];
    const original = lines([...head, '        List<Row> rows = store.readAll();', '        writer.write(dir.resolve("rows.csv"), rows);', ...tail]);
    const wrapped = [
      '        try {',
      '            List<Row> rows = store.readAll();',
      '            writer.write(dir.resolve("rows.csv"), rows, StandardCharsets.UTF_8);',
      '        } catch (UncheckedIOException e) {',
      '            throw e.getCause();',
      '        }',
    ];
    const update = lines(['    public void export(Path dir) throws IOException {', '        // ... existing code ...', '        Files.createDirectories(dir);', ...wrapped, '        log.info("exported to {}", dir);', '        // ... existing code ...']);
    mergedEverywhere(original, update, lines([...head, ...wrapped, ...tail]));
  });

  it('c#: a new `using` block holding a copy with two of its three lines edited leaves the original (control)', () => {
    const head = ['public void Sync(Db db, Item[] items)', '{', '    var started = clock.Now();'];
    const copy = ['    using (var shadow = db.Shadow())', '    {', '        var rows = shadow.Load(items);', '        db.Store(rows);', '        audit.Record("shadowed", rows.Count);', '    }'];
    const body = ['    var rows = db.Load(items);', '    db.Store(rows);', '    audit.Record("synced", rows.Count);'];
    const tail = ['    metrics.Observe(clock.Now() - started);', '}'];
    const code = lines([...head, ...body, ...tail]);
    const update = lines([head[2]!, ...copy, '    // ... existing code ...']);
    // wrapz's licence read the copy as the body moved (nothing lost); most of it is rewritten, so the body stays.
    const lost = judged(code, update, lines([...head, ...copy, ...tail]), lines([...head, ...copy, ...body, ...tail]));
    expect(lost).toEqual([3, 5]);
  });
});
