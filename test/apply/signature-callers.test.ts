// Branch orderx (second round): a changed signature with every caller, each caller shown briefly.
// (1) Callers shown one after another with body markers, the declarations between them left out
// (`type Team struct` between `GetUser`'s `}` and `func GetTeam`): rule (b) does not delete a whole
// definition whose name the update's code still uses (dangling-name.ts usedDefinitionRows; set bc
// go16, lossy on main). (2) A local the edit moved into the head as a defaulted parameter is replaced
// by the head (between-edits.ts; set bc jl07). (3) A call whose last argument is a literal over
// several lines gains an argument after it (`]);` → `], cached(600));`): the closing line is edited,
// not new (closer-resume.ts; set ba php01). Written in Swift and JavaScript, not the cases' Go, Julia
// and PHP. Controls: a definition whose uses went with it is still deleted by adjacency; an unshown
// local the head does not take stays.
import { describe, expect, it } from 'vitest';
import { judged, lines, mergedEverywhere } from './judged.js';

describe('orderx: declarations left out between callers shown one after another', () => {
  const code = lines([
    'struct User {', '    let id: Int', '    let name: String', '}', '',
    'func loadUser(_ db: Database, id: Int) throws -> User {', '    let row = try db.row("SELECT * FROM users WHERE id = ?", id)', '    return User(id: row.int(0), name: row.string(1))', '}', '',
    'struct Team {', '    let id: Int', '    let slug: String', '}', '',
    'func loadTeam(_ db: Database, id: Int) throws -> Team {', '    let row = try db.row("SELECT * FROM teams WHERE id = ?", id)', '    return Team(id: row.int(0), slug: row.string(1))', '}',
  ]);
  const update = lines([
    '// ...', '',
    'func loadUser(_ db: Database, id: Int) throws -> User {', '    let row = try db.row("SELECT * FROM users WHERE id = ?", id, timeout: 5)', '    // ...', '}', '',
    'func loadTeam(_ db: Database, id: Int) throws -> Team {', '    let row = try db.row("SELECT * FROM teams WHERE id = ?", id, timeout: 5)', '    // ...', '}',
  ]);
  const good = code.replaceAll(', id)', ', id, timeout: 5)');

  it('swift: a struct the shown callers use is not deleted by adjacency', () => {
    const lossy = good.replace(lines(['struct Team {', '    let id: Int', '    let slug: String', '}', '']), '');
    expect(judged(code, update, lossy, good)).toEqual([10, 11, 12, 13]);
  });

  it('control: a helper whose uses went with it is still deleted between shown neighbours', () => {
    const withHelper = lines([
      'func header(_ u: User) -> String {', '    "<h1>\\(u.name)</h1>"', '}', '',
      'func day(_ d: Date) -> String {', '    d.formatted(.iso8601)', '}', '',
      'func post(_ p: Post) -> String {', '    "<time>\\(day(p.created))</time>"', '}',
    ]);
    const update2 = lines([
      'func header(_ u: User) -> String {', '    "<h1>\\(u.name)</h1>"', '}', '',
      'func post(_ p: Post) -> String {', '    "<time>\\(p.created.formatted(.iso8601))</time>"', '}',
    ]);
    mergedEverywhere(withHelper, update2, update2);
  });
});

describe('orderx: a local moved into the edited head as a defaulted parameter', () => {
  const file = (head: string, local: string[]): string => lines([
    'final class Loader {', `    func load(${head}) throws -> [Item] {`, ...local, '        let data = try Data(contentsOf: url)', '        return try decoder.decode([Item].self, from: data)', '    }', '}',
  ]);

  it('swift: `let decoder = JSONDecoder()` goes into the signature', () => {
    const code = file('from url: URL', ['        let decoder = JSONDecoder()']);
    const head = 'from url: URL, decoder: JSONDecoder = JSONDecoder()';
    const update = lines([`    func load(${head}) throws -> [Item] {`, '        let data = try Data(contentsOf: url)', '        // ... rest unchanged', '    }']);
    mergedEverywhere(code, update, file(head, []));
  });

  it('control: an unshown local the head does not take stays', () => {
    const code = file('from url: URL', ['        let started = Date()', '        let decoder = JSONDecoder()']);
    const head = 'from url: URL, decoder: JSONDecoder = JSONDecoder()';
    const update = lines([`    func load(${head}) throws -> [Item] {`, '        let data = try Data(contentsOf: url)', '        // ... rest unchanged', '    }']);
    const good = file(head, ['        let started = Date()']);
    const lossy = file(head, []);
    expect(judged(code, update, lossy, good)).toEqual([2]);
  });
});

describe('orderx: a call whose multi-line last argument gains an argument after it', () => {
  it('javascript: `]);` → `], cached(600));` in a caller hunk shown last, above the first', () => {
    const file = (a: string, b: string, helper: string[]): string => lines([
      'export function monthly(req) {', '  const rows = reports.monthly(req.month);', '  return render("monthly", [', '    rows,', '    req.month,', `  ]${a});`, '}', '',
      'export function yearly(req) {', '  const rows = reports.yearly(req.year);', '  return render("yearly", [', '    rows,', '    req.year,', `  ]${b});`, '}', ...helper,
    ]);
    const helper = ['', 'function cached(seconds) {', '  return { headers: { "Cache-Control": `max-age=${seconds}` } };', '}'];
    const update = lines([
      'export function yearly(req) {', '  const rows = reports.yearly(req.year);', '  return render("yearly", [', '    rows,', '    req.year,', '  ], cached(3600));', '}', ...helper, '',
      '// ... and in monthly:', '',
      '  return render("monthly", [', '    rows,', '    req.month,', '  ], cached(600));',
    ]);
    mergedEverywhere(file('', '', []), update, file(', cached(600)', ', cached(3600)', helper));
  });
});
