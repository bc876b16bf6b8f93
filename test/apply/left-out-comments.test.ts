// Branch lossx: a run of comment lines a snippet leaves out between two lines it shows adjacent is
// not deleted (left-out-comments.ts). Written in languages other than the cases that revealed the
// class (ab go01, a Go doc comment; aa rb02, notes under a Ruby class head).
import { describe, expect, it } from 'vitest';
import { judged, lines, mergedEverywhere } from './judged.js';
import { checkLoss } from '../../src/apply/loss.js';

describe('lossx: comments a snippet leaves out stay', () => {
  const kotlin = (check: string): string[] => [
    'package shop',
    '',
    'data class Item(',
    '    val id: String,',
    '    val qty: Int,',
    ')',
    '',
    '/**',
    ' * Adds one item; a duplicate id raises the quantity instead.',
    ' */',
    'fun MutableList<Item>.addItem(item: Item) {',
    `    ${check}`,
    '    add(item)',
    '}',
    '',
    'fun MutableList<Item>.total(): Int = sumOf { it.qty }',
  ];

  it('kotlin: a KDoc between a shown class and the shown function under it stays', () => {
    const shown = kotlin('require(item.qty in 1..99)');
    const update = lines(['// ... existing code ...', ...shown.slice(2, 7), ...shown.slice(10, 14), '// ... existing code ...']);
    mergedEverywhere(lines(kotlin('require(item.qty > 0)')), update, lines(shown));
  });

  it('sql: the oracle does not license a comment run left out between shown statements', () => {
    const code = lines(['CREATE TABLE a (id int);', '-- b keeps one row per a; see ADR 12.', '-- Rows are never updated.', 'CREATE TABLE b (id int, a_id int);']);
    const update = lines(['CREATE TABLE a (id int);', 'CREATE TABLE b (id int, a_id int NOT NULL);', '-- ...']);
    const lossy = lines(['CREATE TABLE a (id int);', 'CREATE TABLE b (id int, a_id int NOT NULL);']);
    const good = lines(['CREATE TABLE a (id int);', '-- b keeps one row per a; see ADR 12.', '-- Rows are never updated.', 'CREATE TABLE b (id int, a_id int NOT NULL);']);
    expect(judged(code, update, lossy, good)).toEqual([1, 2]);
    // An instruction about the comments licenses them (rule (c) or its wording).
    expect(checkLoss(code, update, 'drop the stale comments above b', lossy).lost).toEqual([]);
  });
});
