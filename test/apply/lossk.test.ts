// Branch lossk: shapes of sets h, i and j that lost code (or passed the oracle while losing it),
// each written here in another language than the case that revealed it.
// - a comma-first field (`, timeout = …` in a Haskell record, i hs01) is not the edit of the field
//   before it: the leading comma is no part of the key (lines.ts assignmentKey);
// - the nested lines of a new list item are not the edits of the next item's (`- name: STRIPE_API_KEY`
//   before `- name: DATABASE_URL`, j yaml01): items named by their first key are different owners
//   (line-identity.ts sameOwner, sibling-items.ts namedItemsDiffer);
// - a new method whose head carries `async` / `override` after its parameters names itself, so its
//   body is no edit of a differently named method's (block-names.ts; i dart02);
// - removal targets named the way people talk: "the delete method", "the list subcommand",
//   "the reports bucket and all of its resources", "the labels table, its trigger and its index",
//   "the two warehouse endpoints" (removals.ts, attached-removals.ts, described-targets.ts).
import { describe, expect, it } from 'vitest';
import { judged, lines } from './judged.js';
import { checkLoss, restoreLost } from '../../src/apply/loss.js';
import { editedVersion, splitLines } from '../../src/apply/lines.js';
import { lineIdentity } from '../../src/apply/line-identity.js';
import { attachedRemovalHeads, instructedRemovals, removalNames, removalParams, removalTargets } from '../../src/apply/removals.js';

describe('lossk: no new line stands for an old one of another name', () => {
  it('a comma-first field is not the edit of the field before it (JavaScript; set i hs01)', () => {
    expect(editedVersion(', workers: toInt(env.APP_WORKERS, defaults.workers)', ', timeout: toInt(env.APP_WORKERS, defaults.timeout)')).toBe(false);
    expect(editedVersion(', workers: toInt(env.APP_WORKERS, defaults.workers)', ', workers: toInt(env.APP_WORKERS, 8)')).toBe(true);
  });

  it('the nested lines of a new named item are not the next item\'s edits (JavaScript; set j yaml01)', () => {
    const head = ['const jobs = [', "  { name: 'cleanup',", "    schedule: '0 3 * * *',", '    retry: {', '      attempts: 3,', '      backoffMs: 60000,', '    },', '  },'];
    const reindex = ["  { name: 'reindex',", "    schedule: '0 5 * * 0',", '    retry: {', '      attempts: 2,', '      backoffMs: 120000,', '    },', '  },'];
    const vacuum = ["  { name: 'vacuum',", "    schedule: '0 4 * * *',", '    retry: {', '      attempts: 5,', '      backoffMs: 30000,', '    },', '  },'];
    const code = lines([...head, ...reindex, ']']);
    const update = lines([...head, ...vacuum, "  { name: 'reindex',", '    // ...', '// ... rest unchanged ...']);
    const good = lines([...head, ...vacuum, ...reindex, ']']);
    // The item's own lines dropped: vacuum's retry lines read as their edits before.
    const lossy = lines([...head, ...vacuum.slice(0, 2), "  { name: 'reindex',", "    schedule: '0 5 * * 0',", ...vacuum.slice(2), ']']);
    expect(judged(code, update, lossy, good).length).toBeGreaterThan(0);
  });

  it('a method head with `override` / `async` after its parameters names the method (C++, Dart; set i dart02)', () => {
    expect(lineIdentity('void update(const Todo& t) override {')).toBe('def update');
    expect(lineIdentity('Future<Todo> create(String title) async {')).toBe('def create');
    // Kotlin's `fun`, expression bodies included (set l kt03: a new method placed by the instruction).
    expect(lineIdentity('suspend fun rename(id: Long, title: String): Boolean = withContext(Dispatchers.IO) {')).toBe('def rename');
    expect(lineIdentity('public void delete(long id) throws IOException {')).toBe('def delete');
    const create = ['  void create(const std::string& title) override {', '    auto res = client_.post(base_ + "/todos", title);', '    check(res, 201, "create");', '    cache_.put(res.id, res);', '  }'];
    const update = ['  void update(const Todo& t) override {', '    auto res = client_.put(base_ + "/todos/" + t.id, t.title);', '    check(res, 200, "update");', '    cache_.put(res.id, res);', '  }'];
    const code = lines(['class TodoApi : public Api {', ' public:', ...create, '};']);
    const good = lines(['class TodoApi : public Api {', ' public:', ...create, '', ...update, '};']);
    const lossy = lines(['class TodoApi : public Api {', ' public:', ...update, '};']);
    expect(judged(code, lines(update), lossy, good).length).toBeGreaterThan(0);
  });
});

describe('lossk: removals named the way people talk', () => {
  it('a verb word after an article names the thing, not a second removal', () => {
    expect(removalTargets('Remove the delete method from the Repo class.')).toEqual(['delete']);
    expect(removalTargets('Drop the remove handler')).toEqual(['remove']);
  });

  it('kind words: subcommand, bucket, trigger, overload', () => {
    expect(removalTargets('Remove the status subcommand (function and case branch).')).toEqual(['status']);
    expect(removalTargets('Remove the uploads bucket.')).toEqual(['uploads']);
  });

  it('what belongs to a removed definition goes when the instruction says so (HCL, SQL)', () => {
    const tf = splitLines(lines([
      'resource "google_storage_bucket" "media" {', '  name = "media"', '}', '',
      'resource "google_storage_bucket_iam_member" "media" {', '  bucket = google_storage_bucket.media.name', '}', '',
      'resource "google_storage_bucket" "logs" {', '  name = "logs"', '}', '',
      'output "media_url" {', '  value = google_storage_bucket.media.url', '}',
    ]));
    expect(attachedRemovalHeads(tf, 'Remove the media bucket and all of its resources and outputs.', '')).toEqual([4, 12]);
    expect(attachedRemovalHeads(tf, 'Remove the media bucket and all of its resources.', '')).toEqual([4]);
    // Without a possessive nothing else goes.
    expect(attachedRemovalHeads(tf, 'Remove the media bucket.', '')).toEqual([]);
    const sql = splitLines(lines([
      'CREATE TABLE tags (', '    id BIGSERIAL PRIMARY KEY', ');', '',
      'CREATE TABLE post_tags (', '    tag_id BIGINT NOT NULL REFERENCES tags(id)', ');', '',
      'CREATE INDEX tags_id_idx ON tags (id);', 'CREATE INDEX post_tags_tag_idx ON post_tags (tag_id);',
    ]));
    // A table with a foreign key to it is another table, not "its" index.
    expect(attachedRemovalHeads(sql, 'Remove the tags table and its index.', '')).toEqual([8]);
  });

  it('an overload named by its parameter is the only one removed (Java; set d cs04)', () => {
    const java = lines([
      'class Mailer {', '    void send(String to, Duration timeout) {', '        client.post(to, timeout);', '    }', '',
      '    @Deprecated', '    void send(String to, int timeoutSeconds) {', '        send(to, Duration.ofSeconds(timeoutSeconds));', '    }', '}',
    ]);
    const instruction = 'Remove the deprecated send overload that takes timeoutSeconds.';
    expect(removalParams(instruction)).toEqual(new Map([['send', 'timeoutSeconds']]));
    const o = splitLines(java);
    const removed = [...instructedRemovals(o, new Uint8Array(o.text.length).fill(1), instruction, '')].sort((a, b) => a - b);
    expect(removed).toEqual([4, 5, 6, 7, 8]);
    const good = lines(['class Mailer {', '    void send(String to, Duration timeout) {', '        client.post(to, timeout);', '    }', '}']);
    const wrong = lines(['class Mailer {', '', '    @Deprecated', '    void send(String to, int timeoutSeconds) {', '        send(to, Duration.ofSeconds(timeoutSeconds));', '    }', '}']);
    expect(checkLoss(java, '// ...', instruction, good).lost).toEqual([]);
    expect(checkLoss(java, '// ...', instruction, wrong).lost.length).toBeGreaterThan(0);
  });

  it('definitions named by description, scoped by number', () => {
    const php = splitLines(lines([
      'class ShopController {', '    public function listOrders() {', '        return Order::all();', '    }',
      '    public function showInvoice($id) {', '        return Invoice::find($id);', '    }',
      '    public function createInvoice() {', '        return Invoice::create(request()->all());', '    }', '}',
    ]));
    expect(removalNames(php, 'Remove the two invoice endpoints.').sort()).toEqual(['createInvoice', 'invoice', 'showInvoice']);
    // Three asked for, two found: none is named.
    expect(removalNames(php, 'Remove the three invoice endpoints.')).toEqual(['invoice']);
  });
});
