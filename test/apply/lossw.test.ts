// Branch lossw: a block the update shows whole, copied from the original sibling it is matched into,
// is a new block beside it unless it shows something of that sibling (copied-sibling.ts). The
// guards are written in languages other than the sets' cases that revealed the class (x dart01, a
// Flutter widget; y tsx02, a JSX form field).
import { describe, expect, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';
import { splitLines } from '../../src/apply/lines.js';
import { copiedSiblingBlock } from '../../src/apply/copied-sibling.js';

describe('lossw: a copied sibling block is new, not the next sibling edited', () => {
  // Swift: a tab copied from the shown one, the marker right after it; the tab after it was read as edited.
  const tab = (icon: string, title: string, route: string): string[] =>
    ['    TabItem(', `        icon: "${icon}",`, `        title: "${title}",`, `        route: .${route}`, '    ),'];
  const head = ['import SwiftUI', '', 'let tabs: [TabItem] = ['];
  const tail = [']', '', 'func tab(for route: Route) -> TabItem? {', '    tabs.first { $0.route == route }', '}'];
  const home = tab('house', 'Home', 'home');
  const inbox = tab('tray', 'Inbox', 'inbox');
  const profile = tab('person', 'Profile', 'profile');
  const search = tab('magnifyingglass', 'Search', 'search');

  it('swift: a tab copied after the shown one keeps the next tab', () => {
    const code = lines([...head, ...home, ...inbox, ...profile, ...tail]);
    const update = lines(['    // ... existing code ...', ...inbox, ...search, '    // ... existing code ...']);
    mergedEverywhere(code, update, lines([...head, ...home, ...inbox, ...search, ...profile, ...tail]));
  });

  it('swift: the same with the shown tab edited in its first line', () => {
    const code = lines([...head, ...home, ...inbox, ...profile, ...tail]);
    const edited = ['    TabItem(', '        icon: "tray.full",', ...inbox.slice(2)];
    const update = lines([...edited, ...search, '    // ... existing code ...']);
    mergedEverywhere(code, update, lines([...head, ...home, ...edited, ...search, ...profile, ...tail]));
  });

  it('xml: an element copied after the shown one keeps the next element', () => {
    const item = (id: string, label: string): string[] =>
      ['    <item>', `        <id>${id}</id>`, `        <label>${label}</label>`, '    </item>'];
    const code = lines(['<?xml version="1.0"?>', '<menu>', ...item('open', 'Open'), ...item('save', 'Save'), ...item('quit', 'Quit'), '</menu>']);
    const update = lines(['<!-- ... existing code ... -->', ...item('save', 'Save'), ...item('export', 'Export'), '<!-- ... existing code ... -->']);
    mergedEverywhere(code, update, lines(['<?xml version="1.0"?>', '<menu>', ...item('open', 'Open'), ...item('save', 'Save'), ...item('export', 'Export'), ...item('quit', 'Quit'), '</menu>']));
  });

  it('a block stands for the original one when its head is unique there, or it shows most of its own lines', () => {
    const o = splitLines(lines(['rules = [', '  {', '    name = "a"', '    limit = 1', '    burst = 2', '  },', '  {', '    name = "b"', '    limit = 3', '    burst = 2', '  },', ']']));
    // A copy of entry "b" (row 6) showing none of its own lines: new.
    const copy = splitLines(lines(['  {', '    name = "c"', '    limit = 5', '    burst = 2', '  },']));
    expect(copiedSiblingBlock(copy, 0, o, 6, 1)).toBe(true);
    expect(copiedSiblingBlock(copy, 4, o, 10, -1)).toBe(true);
    // Entry "b" with one value edited shows most of its own lines: its edit.
    const edit = splitLines(lines(['  {', '    name = "b"', '    limit = 4', '    burst = 2', '  },']));
    expect(copiedSiblingBlock(edit, 0, o, 6, 1)).toBe(false);
    // A head the original has once is that block, whatever its body.
    const o2 = splitLines(lines(['server {', '  listen 80;', '  root /srv;', '}']));
    const s2 = splitLines(lines(['server {', '  listen 8080;', '  root /var/www;', '}']));
    expect(copiedSiblingBlock(s2, 0, o2, 0, 1)).toBe(false);
  });
});
