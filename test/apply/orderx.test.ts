// Guards of branch orderx (docs/apply.md): a note between hunks that says where the next one goes
// (`// ... and in init:`), a one-line hunk that edits a declaration whose definition another hunk
// edits, and the file's last line edited with new lines around it. Revealed by held-out cases in
// C++, GraphQL, Vue and HCL (sets ab, ad, t); the guards are in Swift, PHP and Ruby.
import { describe, expect, it } from 'vitest';
import { lines } from './judged.js';
import { mergeApply } from '../../src/apply/merge.js';

const modes = ['fast', 'large', 'auto'] as const;

function mergesTo(code: string, update: string, expected: string): void {
  for (const mode of modes) expect(mergeApply({ code, update, instruction: null }, mode).content, mode).toBe(expected);
}

// Swift: a method edited, then `// ... and in the initializer, store the page cap:` and the initializer above it.
const swiftInit = (extra: string[]): string[] => ['    init(session: URLSession) {', '        self.session = session', ...extra, '    }'];
const swiftFetch = (guard: string): string[] => [
  '    func fetch(page: Int) async throws -> [Item] {', `        guard ${guard} else { return [] }`,
  '        let (data, _) = try await session.data(from: endpoint(page))', '        return try JSONDecoder().decode([Item].self, from: data)', '    }'];
const swiftFile = (props: string[], extra: string[], guard: string): string =>
  lines(['import Foundation', '', 'final class FeedClient {', '    private let session: URLSession', ...props, '', ...swiftInit(extra), '', ...swiftFetch(guard), '}']);
const swiftCode = swiftFile([], [], 'page >= 0');
const swiftUpdate = lines([...swiftFetch('page >= 0, page < maxPages'), '', '// ... and in the initializer, store the page cap:',
  '    private let session: URLSession', '    private let maxPages = 50', '']);
const swiftExpected = swiftFile(['    private let maxPages = 50'], [], 'page >= 0, page < maxPages');

// PHP: the method's head edited in one hunk, its interface declaration edited in a one-line hunk after it.
const phpFile = (decl: string, head: string, body: string[]): string => lines([
  '<?php', '', 'namespace App\\Users;', '', 'interface UserStore', '{', `    ${decl}`, '    public function find(int $id): ?User;', '}', '',
  'final class PdoUserStore implements UserStore', '{', '    public function __construct(private \\PDO $db)', '    {', '    }', '',
  `    ${head}`, '    {', ...body, '    }', '',
  '    public function find(int $id): ?User', '    {', "        $st = $this->db->prepare('select * from users where id = ?');", '        $st->execute([$id]);',
  '        return User::fromRow($st->fetch() ?: null);', '    }', '}']);
const phpBody = ["        $st = $this->db->prepare('insert into users (email) values (?)');", '        $st->execute([$user->email]);'];
const phpCode = phpFile('public function save(User $user): void;', 'public function save(User $user): void', phpBody);
const phpUpdate = lines(['    // ...', '    public function save(User $user, bool $notify = false): void', '    {', ...phpBody,
  '        if ($notify) {', '            Mailer::welcome($user);', '        }', '    }', '    // ...', '    public function save(User $user, bool $notify = false): void;', '    // ...']);
const phpExpected = phpFile('public function save(User $user, bool $notify = false): void;', 'public function save(User $user, bool $notify = false): void',
  [...phpBody, '        if ($notify) {', '            Mailer::welcome($user);', '        }']);

// Ruby: the script's last line wrapped in `exit(...)` inside a new guard, the update stopping there.
const rbHead = ['require "optparse"', '', 'def run(argv)', '  options = { dry_run: false }', '  OptionParser.new { |o| o.on("-n") { options[:dry_run] = true } }.parse!(argv)',
  '  Sync.new(**options).call', '  0', 'end', ''];
const rbCode = lines([...rbHead, 'run(ARGV)']);
const rbUpdate = lines(['# ... existing code ...', '  Sync.new(**options).call', '  0', 'end', '', 'if $PROGRAM_NAME == __FILE__', '  exit(run(ARGV))', 'end']);
const rbExpected = lines([...rbHead, 'if $PROGRAM_NAME == __FILE__', '  exit(run(ARGV))', 'end']);

describe('orderx: where hunks go and the file end', () => {
  it('a note opening with dots that moves on (`... and in the initializer, …:`) is a marker: the hunk after it goes where its lines are (Swift)', () => mergesTo(swiftCode, swiftUpdate, swiftExpected));
  it('a one-line hunk edits the declaration, not the definition another hunk edits more closely (PHP)', () => mergesTo(phpCode, phpUpdate, phpExpected));
  it('the last line edited inside new lines, no marker after: the old last line goes (Ruby)', () => mergesTo(rbCode, rbUpdate, rbExpected));
});
