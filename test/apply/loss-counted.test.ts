// The no-loss oracle counted the way the external benchmark counts (trimmed lines, occurrences),
// with rule (a) read as issue 28 words it: an update line that is new text replaces an original
// line at that place. Each output below passed the oracle before (a line "edited" elsewhere stood
// in for the lost one); the shapes come from the external sets (a new PHP/Rust function taken as an
// edit of the next one, a Terraform resource's line anchored in the next resource, a Go `if` in a
// new `defer` taken as the function's own), written here in other languages.
import { describe, expect, it } from 'vitest';
import { checkLoss, restoreLost } from '../../src/apply/loss.js';
import { lineIdentity, namesDiffer, renameShownInPlace } from '../../src/apply/line-identity.js';
import { editedVersion, renamedInPlace, splitLines } from '../../src/apply/lines.js';

const lines = (a: string[]): string => a.join('\n') + '\n';

describe('no-loss oracle, counted', () => {
  it('a new function is not an edit of the next one (Swift)', () => {
    const code = lines(['func loadUser(id: Int) -> User {', '    let row = db.find(id)', '    return User(row)', '}', '', 'func deleteUser(id: Int) {', '    db.remove(id)', '    cache.evict(id)', '}']);
    const update = lines(['func loadUser(id: Int) -> User {', '    let row = db.find(id)', '    return User(row)', '}', '', 'func archiveUser(id: Int) {', '    db.archive(id)', '}', '// ...']);
    const lossy = lines(['func loadUser(id: Int) -> User {', '    let row = db.find(id)', '    return User(row)', '}', '', 'func archiveUser(id: Int) {', '    db.archive(id)', '}']);
    // What licensed it before: the header reads as a one-token rename, the body line too.
    expect(renamedInPlace('func deleteUser(id: Int) {', 'func archiveUser(id: Int) {')).toBe(true);
    expect(namesDiffer('func deleteUser(id: Int) {', 'func archiveUser(id: Int) {')).toBe(true);
    expect(checkLoss(code, update, null, lossy).lost).toEqual([5, 6, 7]);
    // The correct merge passes; restoring the lossy one keeps deleteUser whole.
    const good = lossy + lines(['', 'func deleteUser(id: Int) {', '    db.remove(id)', '    cache.evict(id)', '}']);
    expect(checkLoss(code, update, null, good).lost).toEqual([]);
    const { content } = restoreLost(code, update, null, lossy);
    expect(checkLoss(code, update, null, content).lost).toEqual([]);
    expect(content).toContain('func deleteUser(id: Int) {\n    db.remove(id)\n    cache.evict(id)\n}');
  });

  it('a rename shown in place, its body unchanged, is licensed (Swift)', () => {
    const code = lines(['func deleteUser(id: Int) {', '    db.remove(id)', '    cache.evict(id)', '    audit.log(id)', '}', '', 'func other() {}']);
    const update = lines(['func removeUser(id: Int) {', '    db.remove(id)', '    cache.evict(id)', '    audit.log(id)', '}', '// ...']);
    const out = code.replace('deleteUser', 'removeUser');
    expect(renameShownInPlace(splitLines(update), 0, splitLines(code), 0)).toBe(true);
    expect(checkLoss(code, update, null, out).lost).toEqual([]);
  });

  it('a line of a new block is not the same line of the next block (Python, owners compared)', () => {
    const code = lines(['class Bucket:', '    name = "assets"', '', '', 'class Encryption:', '    bucket = "assets"', '    algorithm = "AES256"']);
    const update = lines(['class Bucket:', '    name = "assets"', '', '', 'class Versioning:', '    bucket = "assets"', '    enabled = True', '', '', '# ...']);
    const lossy = lines(['class Bucket:', '    name = "assets"', '', '', 'class Versioning:', '    bucket = "assets"', '    enabled = True', '    algorithm = "AES256"']);
    expect(checkLoss(code, update, null, lossy).lost).toEqual([4]);
  });

  it('an edit stays at its depth: a line in a new nested block does not replace the function\'s own (JavaScript)', () => {
    const code = lines(['function run(task, id) {', '  if (!task.ok()) {', '    failures.add(1);', '    log.warn("task failed", id);', '  }', '  completed.add(1);', '}']);
    const update = lines(['function run(task, id) {', '  process.once("exit", (e) => {', '    if (!task.saved()) {', '      failures.add(1);', '      log.error("task unsaved", id);', '    }', '  });', '  // ... existing code ...']);
    const lossy = lines(['function run(task, id) {', '  process.once("exit", (e) => {', '    if (!task.saved()) {', '      failures.add(1);', '      log.error("task unsaved", id);', '    }', '  });', '  completed.add(1);', '}']);
    expect(editedVersion('if (!task.ok()) {', 'if (!task.saved()) {') || renamedInPlace('if (!task.ok()) {', 'if (!task.saved()) {')).toBe(true);
    const lost = checkLoss(code, update, null, lossy).lost;
    expect(lost).toContain(1);
    expect(lost).toContain(3);
  });

  it('counts occurrences: a function the update moves is not lost (Python)', () => {
    const code = lines(['def a():', '    return 1', '', '', 'def b():', '    return 2', '', '', 'def c():', '    return 3']);
    const update = lines(['def c():', '    return 3', '', '', 'def a():', '    return 1', '', '', '# ...']);
    const out = lines(['def c():', '    return 3', '', '', 'def a():', '    return 1', '', '', 'def b():', '    return 2']);
    expect(checkLoss(code, update, null, out).lost).toEqual([]);
    // Dropping b instead is loss, whatever moved.
    expect(checkLoss(code, update, null, lines(['def c():', '    return 3', '', '', 'def a():', '    return 1'])).lost).toEqual([4, 5]);
  });

  it('names what lines head', () => {
    expect(lineIdentity('resource "aws_s3_bucket_versioning" "assets" {')).toBe('hcl resource aws_s3_bucket_versioning assets');
    expect(lineIdentity('TEST(MatrixTest, Transpose) {')).toBe('test TEST(MatrixTest,Transpose)');
    expect(lineIdentity('@router.post("/{note_id}/archive", response_model=NoteOut)')).toBe('route post /{note_id}/archive');
    expect(lineIdentity('lint:')).toBe('key lint');
    expect(lineIdentity('else:')).toBeNull();
    expect(lineIdentity('<label for="phone">Phone</label>')).toBe('element label phone');
    expect(lineIdentity('func (p *Pool) run(ctx context.Context) {')).toBe('def Pool.run');
    // Methods are named with their owner, so two handlers' `handle` are not one line edited (branch lossn).
    expect(lineIdentity('Response AddressHandler::handle(const Request& req) {')).toBe('def AddressHandler::handle');
    expect(lineIdentity('Buffer *buffer_new(void) {')).toBe('def buffer_new');
    expect(lineIdentity('return x + 1;')).toBeNull();
  });
});
