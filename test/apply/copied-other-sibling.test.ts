// Branch usesy: a new markup block written line for line like the sibling before it (a table cell,
// a form field), shown after that sibling, next to a sibling with one line of its own. Growing the
// segment's edge paired the copy's head with the next sibling's alike head (`<DataCell>` and
// `<DataCell align="end">`) and its closer with the next sibling's closer, so the next sibling's one line
// read as replaced (set al tsx02, lossy). One own line was too little to call the block a copy; a
// block that repeats another sibling (its head exactly, each line as it is or edited) is one
// (copied-sibling.ts copiesOtherSibling). Written in Vue and XAML, not TSX; both fail on main.
import { describe, expect, it } from 'vitest';
import { copiedSiblingBlock } from '../../src/apply/copied-sibling.js';
import { splitLines } from '../../src/apply/lines.js';

const text = (rows: string[]): string => `${rows.join('\n')}\n`;

describe('usesy: a block copied from the sibling before it is not the next sibling’s edit', () => {
  it('vue: a new money cell after the total cell, before a one-line status cell (component cells)', () => {
    const original = splitLines(text([
      '      <tr v-for="row in rows" :key="row.id">', '        <td>{{ row.number }}</td>',
      '        <DataCell align="end">', '          {{ money(row.total) }}', '        </DataCell>',
      '        <DataCell>', '          <StatusBadge :status="row.status" />', '        </DataCell>', '      </tr>',
    ]));
    const update = splitLines(text([
      '        <DataCell align="end">', '          {{ money(row.total) }}', '        </DataCell>',
      '        <DataCell align="end">', '          {{ money(row.paid) }}', '        </DataCell>',
    ]));
    // The copy's head (update row 3) against the status cell's head (original row 5).
    expect(copiedSiblingBlock(update, 3, original, 5, 1)).toBe(true);
    // Its closer against the status cell's closer, growing backwards.
    expect(copiedSiblingBlock(update, 5, original, 7, -1)).toBe(true);
  });

  it('xaml: a new labelled row after the previous one, before a one-line button row', () => {
    const original = splitLines(text([
      '<StackPanel>', '    <StackPanel Orientation="Horizontal">', '        <TextBlock Text="Name" />', '    </StackPanel>',
      '    <StackPanel>', '        <Button Content="Save" Click="OnSave" />', '    </StackPanel>', '</StackPanel>',
    ]));
    const update = splitLines(text([
      '    <StackPanel Orientation="Horizontal">', '        <TextBlock Text="Name" />', '    </StackPanel>',
      '    <StackPanel Orientation="Horizontal">', '        <TextBlock Text="Email" />', '    </StackPanel>',
    ]));
    expect(copiedSiblingBlock(update, 3, original, 4, 1)).toBe(true);
  });

  it('an edit of the one-line sibling itself stays its edit (control)', () => {
    const original = splitLines(text([
      '      <tr>', '        <td class="num">', '          {{ money(row.total) }}', '        </td>',
      '        <td>', '          <StatusBadge :status="row.status" />', '        </td>', '      </tr>',
    ]));
    const update = splitLines(text(['        <td class="wide">', '          <StatusBadge :status="row.status" large />', '        </td>']));
    expect(copiedSiblingBlock(update, 0, original, 4, 1)).toBe(false);
  });
});
