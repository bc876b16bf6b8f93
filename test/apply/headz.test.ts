// Branch headz: an edited line at a hunk's edge that the no-loss pass refused as its original's edit,
// so the original line came back beside it. Two rules widen the existing licences (licence-rules.ts):
// - the header above the edited line may be grown at one place (`for {` → `for ctx.Err() == nil {`,
//   `<form>` → `<form method="post">`): ownerEditMatches takes it as the original header's edit;
// - a line whose siblings are as close to it as the edit is (`kotlin("jvm") version "1.9.24"` beside
//   `kotlin("plugin.jpa") version "1.9.24"`) is edited when the update changes only the part it shares
//   with them and keeps what sets it apart (shared-part-edit.ts).
// Written in Go, PHP, Kotlin and Lua; the cases that revealed the classes are Svelte, shell, OCaml,
// Dockerfile, JSON and C#. Each merge is also judged by the no-loss oracle.
import { describe, expect, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';
import { tokens } from '../../src/apply/lines.js';
import { editsSharedPart } from '../../src/apply/shared-part-edit.js';

describe('headz: a grown header over an edited edge line', () => {
  it('go: `for {` given a condition, its first body line edited before a marker', () => {
    const file = (head: string, read: string): string => lines([
      'package tail', '', 'func Follow(ctx context.Context, r Reader, out chan<- Line) {', `\t${head}`,
      `\t\tline, err := ${read}`, '\t\tif err != nil {', '\t\t\treturn', '\t\t}', '\t\tout <- line', '\t}', '}',
    ]);
    const update = lines(['func Follow(ctx context.Context, r Reader, out chan<- Line) {', '\tfor ctx.Err() == nil {',
      '\t\tline, err := r.Next(ctx)', '\t\t// ... existing code ...', '\t}', '}']);
    mergedEverywhere(file('for {', 'r.Next()'), update, file('for ctx.Err() == nil {', 'r.Next(ctx)'));
  });

  it('php: a template `<table>` given a class, the loop line below it edited before a marker', () => {
    const file = (table: string, loop: string): string => lines([
      '<section class="orders">', table, `    <?php foreach (${loop}): ?>`, '    <tr>',
      '        <td><?= htmlspecialchars($order->number) ?></td>', '        <td><?= $order->total ?></td>', '    </tr>',
      '    <?php endforeach; ?>', '</table>', '</section>',
    ]);
    const update = lines(['<table class="orders-table">', '    <?php foreach ($orders as $i => $order): ?>', '    <!-- ... -->']);
    mergedEverywhere(file('<table>', '$orders as $order'), update, file('<table class="orders-table">', '$orders as $i => $order'));
  });
});

describe('headz: the part a line shares with its siblings, edited', () => {
  it('kotlin: plugin versions bumped on the lines a hunk shows, before a marker', () => {
    const file = (v: string): string => lines([
      'plugins {', `    kotlin("jvm") version "${v}"`, `    kotlin("plugin.serialization") version "${v}"`,
      '    kotlin("plugin.allopen") version "1.9.24"', '    application', '}', '', 'application {', '    mainClass.set("app.MainKt")', '}',
    ]);
    const update = lines(['plugins {', '    kotlin("jvm") version "2.0.0"', '    kotlin("plugin.serialization") version "2.0.0"', '    // ...', '}']);
    mergedEverywhere(file('1.9.24'), update, file('2.0.0'));
  });

  it('lua: a new sibling replaces what sets the line apart, so it is no edit (control)', () => {
    const j = tokens('require("plugins.telescope").setup({ theme = "dark" })');
    const rival = tokens('require("plugins.treesitter").setup({ theme = "dark" })');
    // The shared part edited, the own name kept: an edit.
    expect(editsSharedPart(j, tokens('require("plugins.telescope").setup({ theme = "light" })'), [rival])).toBe(true);
    // The own name replaced: a new sibling.
    expect(editsSharedPart(j, tokens('require("plugins.lualine").setup({ theme = "dark" })'), [rival])).toBe(false);
    // Too short to have parts: `end)` → `end`.
    expect(editsSharedPart(tokens('end)'), tokens('end'), [tokens('x)')])).toBe(false);
  });
});
