// Branch oddx: a new definition the instruction places ("add X after Y"), shown inside its owner's
// unchanged head and closer with markers around it (owner-wrapper.ts, instructed-place.ts). Guards
// in TypeScript (a tab-indented file, the snippet in spaces) and Swift (no markers); the control has
// an edited head, which is an edit and must survive, so the wrapper is not read as context there.
import { describe, expect, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';
import { mergeApply } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';

describe('oddx: a new definition inside its owner head', () => {
  const ts = lines([
    "import { Db } from './db';", '',
    'export class UserStore {',
    '\tconstructor(private db: Db) {}', '',
    '\tasync find(id: string): Promise<User | null> {', "\t\treturn this.db.one('select * from users where id = $1', [id]);", '\t}', '',
    '\tasync save(user: User): Promise<void> {', "\t\tawait this.db.run('update users set name = $2 where id = $1', [user.id, user.name]);", '\t}', '',
    '\tasync count(): Promise<number> {', "\t\treturn this.db.scalar('select count(*) from users');", '\t}',
    '}',
  ]);
  const tsNew = ['\tasync remove(id: string): Promise<void> {', "\t\tawait this.db.run('delete from users where id = $1', [id]);", '\t}', ''];

  it('typescript: spaces in the snippet, tabs in the file, placed after the named method', () => {
    const update = lines([
      'export class UserStore {', '  // ... existing code ...', '',
      '  async remove(id: string): Promise<void> {', "    await this.db.run('delete from users where id = $1', [id]);", '  }', '',
      '  // ... existing code ...', '}',
    ]);
    const expected = ts.replace('\tasync count()', tsNew.join('\n') + '\n\tasync count()');
    mergedEverywhere(ts, update, expected, 'Add a remove(id) method after save.');
  });

  const swift = lines([
    'import Foundation', '',
    'final class Playlist {',
    '    private(set) var tracks: [Track] = []', '',
    '    func append(_ t: Track) {', '        tracks.append(t)', '    }', '',
    '    func shuffle() {', '        tracks.shuffle()', '    }',
    '}',
  ]);

  it('swift: the owner head and closer with no marker, placed before the named method', () => {
    const update = lines(['final class Playlist {', '    func clear() {', '        tracks.removeAll()', '    }', '}']);
    const expected = swift.replace('    func shuffle()', '    func clear() {\n        tracks.removeAll()\n    }\n\n    func shuffle()');
    mergedEverywhere(swift, update, expected, 'Add clear() before shuffle');
  });

  it('control: an edited owner head is an edit, not context, and stays in every mode', () => {
    const update = lines(['final class Playlist: Codable {', '    // ... existing code ...', '', '    func clear() {', '        tracks.removeAll()', '    }', '', '    // ... existing code ...', '}']);
    const instruction = 'Make Playlist Codable and add clear() before shuffle';
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const out = mergeApply({ code: swift, update, instruction }, mode).content;
      expect(out, mode).toContain('final class Playlist: Codable {');
      expect(checkLoss(swift, update, instruction, out).lost, mode).toEqual([]);
    }
  });
});
