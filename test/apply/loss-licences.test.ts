// Stricter licences of the no-loss oracle (branch loss3). In held-out set d each of these shapes
// lost original code while the oracle passed it, through rule (a) (a new line read as the edit of
// an original one) or rule (b) (anchors in another block); the shapes come from set d (C#, OCaml,
// TypeScript, Elixir, Haskell, shell, protobuf, Zig, Python, C) and are written here in other languages.
// Every test also checks that the correct merge passes and that restoring the lossy one keeps the code.
import { describe, expect, it } from 'vitest';
import { judged, lines } from './judged.js';
import { checkLoss, restoreLost } from '../../src/apply/loss.js';
import { lineIdentity } from '../../src/apply/line-identity.js';
import { distinctEdit } from '../../src/apply/licence-rules.js';
import { splitLines } from '../../src/apply/lines.js';
import { extendedInPlace } from '../../src/apply/extended-line.js';

describe('no-loss oracle, licences judged per block', () => {
  it('a new sibling line next to an anchor is not the edit of the next sibling (Python; set d cs02, ml01)', () => {
    const code = lines(['def configure(app):', '    app.add_url_rule("/", view_func=index)', '    app.add_url_rule("/about", view_func=about)', '    app.add_url_rule("/contact", view_func=contact)', '    return app']);
    const update = lines(['def configure(app):', '    app.add_url_rule("/", view_func=index)', '    app.add_url_rule("/faq", view_func=faq)', '    # ... existing code ...']);
    const lossy = code.replace('"/about", view_func=about', '"/faq", view_func=faq');
    const good = code.replace('    app.add_url_rule("/about"', '    app.add_url_rule("/faq", view_func=faq)\n    app.add_url_rule("/about"');
    const o = splitLines(code);
    expect(distinctEdit(o, 2, 'app.add_url_rule("/faq", view_func=faq)')).toBe(false);
    expect(distinctEdit(o, 2, 'app.add_url_rule("/about", view_func=about_page)')).toBe(true);
    expect(judged(code, update, lossy, good)).toEqual([2]);
  });

  it('a value edit of one sibling is still licensed (Python)', () => {
    const code = lines(['def configure(app):', '    app.add_url_rule("/", view_func=index)', '    app.add_url_rule("/about", view_func=about)', '    app.add_url_rule("/contact", view_func=contact)', '    return app']);
    const update = lines(['def configure(app):', '    app.add_url_rule("/", view_func=index)', '    app.add_url_rule("/about", view_func=about_page)', '    # ... existing code ...']);
    expect(checkLoss(code, update, null, code.replace('view_func=about)', 'view_func=about_page)')).lost).toEqual([]);
  });

  it('a new check copying the shape of the last one, after a marker, does not replace it (Java; set d ts06)', () => {
    const code = lines(['List<String> validate() {', '    List<String> errors = new ArrayList<>();', '    if (name == null) {', '        errors.add("name is required");', '    }', '    if (qty == null) {', '        errors.add("qty is required");', '    }', '    return errors;', '}']);
    const update = lines(['List<String> validate() {', '    // ... existing checks ...', '    if (qty > limit) {', '        errors.add("qty exceeds limit");', '    }', '    return errors;', '}']);
    const lossy = code.replace('if (qty == null) {', 'if (qty > limit) {').replace('"qty is required"', '"qty exceeds limit"');
    const good = code.replace('    return errors;', '    if (qty > limit) {\n        errors.add("qty exceeds limit");\n    }\n    return errors;');
    const lost = judged(code, update, lossy, good);
    expect(lost).toContain(5);
    expect(lost).toContain(6);
  });

  it('methods without a keyword name their block: a new method is not the edit of the next (C#; set d ts03, bash01)', () => {
    expect(lineIdentity('public async Task<int> CountAsync(string status)')).toBe('def CountAsync');
    expect(lineIdentity('async list(opts: PageOptions): Promise<Invoice[]> {')).toBe('def list');
    expect(lineIdentity('rollout() {')).toBe('def rollout');
    expect(lineIdentity('if (x > 0) {')).toBe(null);
    const code = lines(['class OrderService {', '    public int Total() {', '        return repo.Sum();', '    }', '', '    public List<Order> List(int page) {', '        return repo.Find(page);', '    }', '}']);
    const update = lines(['class OrderService {', '    // ... existing methods ...', '', '    public int CountByStatus(string status) {', '        return repo.Count(status);', '    }', '}']);
    const lossy = code.replace('public List<Order> List(int page) {\n        return repo.Find(page);', 'public int CountByStatus(string status) {\n        return repo.Count(status);');
    const good = code.replace('    }\n}', '    }\n\n    public int CountByStatus(string status) {\n        return repo.Count(status);\n    }\n}');
    expect(judged(code, update, lossy, good)).toEqual([5, 6]);
  });

  it('a call block is named by the literal on the line below its head (Python; set d ts01)', () => {
    const code = lines(['router.add_api_route(', '    "/projects",', '    create_project,', '    methods=["POST"],', ')', '', 'router.add_api_route(', '    "/projects/{id}",', '    update_project,', '    methods=["PATCH"],', ')']);
    const update = lines(['# ... existing routes ...', '', 'router.add_api_route(', '    "/projects/{id}/archive",', '    archive_project,', '    methods=["POST"],', ')']);
    const lossy = lines(['router.add_api_route(', '    "/projects",', '    create_project,', '    methods=["POST"],', ')', '', 'router.add_api_route(', '    "/projects/{id}/archive",', '    archive_project,', '    methods=["POST"],', ')']);
    const good = code + lines(['', 'router.add_api_route(', '    "/projects/{id}/archive",', '    archive_project,', '    methods=["POST"],', ')']);
    expect(judged(code, update, lossy, good)).toEqual([7, 8, 9]);
  });

  it('clauses told apart by their patterns: a new equation is not the edit of the next (PureScript; set d hs01, ex02)', () => {
    expect(lineIdentity('size (Node l r) = size l + size r')).toBe('clause size (Node l r)');
    const code = lines(['size :: Tree -> Int', 'size Leaf = 0', 'size (Node l r) = size l + size r', 'size (Tip x) = 1']);
    const update = lines(['size :: Tree -> Int', 'size Leaf = 0', 'size (Pair a b) = 2', '-- ...']);
    const lossy = code.replace('size (Node l r) = size l + size r', 'size (Pair a b) = 2');
    const good = code.replace('size Leaf = 0\n', 'size Leaf = 0\nsize (Pair a b) = 2\n');
    expect(judged(code, update, lossy, good)).toEqual([2]);
  });

  it('a test block without parentheses is named: a line of a new test is not the next test\'s (Ruby; set d hs02)', () => {
    expect(lineIdentity('it "rounds to cents" do')).toBe('test it rounds to cents');
    const code = lines(['describe Price do', '  it "formats dollars" do', '    expect(Price.new(100).to_s).to eq("$1.00")', '  end', '', '  it "rejects negatives" do', '    expect { Price.new(-1) }.to raise_error(ArgumentError)', '  end', 'end']);
    const update = lines(['describe Price do', '  # ... existing examples ...', '', '  it "rounds to cents" do', '    expect(Price.new(1.005).to_s).to eq("$0.01")', '  end', 'end']);
    const lossy = code.replace('  it "rejects negatives" do\n    expect { Price.new(-1) }.to raise_error(ArgumentError)', '  it "rounds to cents" do\n    expect(Price.new(1.005).to_s).to eq("$0.01")');
    const good = code.replace('  end\nend', '  end\n\n  it "rounds to cents" do\n    expect(Price.new(1.005).to_s).to eq("$0.01")\n  end\nend');
    expect(judged(code, update, lossy, good)).toEqual([5, 6]);
  });

  it('a closer edited in place closes the same block (JavaScript; set d zig02)', () => {
    const code = lines(['function main() {', '  const cfg = parse(args);', '  if (cfg.verbose) {', '    log("verbose");', '  }', '}']);
    const update = lines(['function main() {', '  const cfg = tryParse(args, (err) => {', '    exit(2);', '  });', '  // ... existing code ...', '}']);
    // The new callback's `});` put in place of the `if`'s `}`.
    const lossy = lines(['function main() {', '  const cfg = tryParse(args, (err) => {', '  if (cfg.verbose) {', '    log("verbose");', '    exit(2);', '  });', '}']);
    const good = lines(['function main() {', '  const cfg = tryParse(args, (err) => {', '    exit(2);', '  });', '  if (cfg.verbose) {', '    log("verbose");', '  }', '}']);
    expect(judged(code, update, lossy, good)).toEqual([4]);
  });

  it('a comment standing where whole methods were keeps them (Kotlin; set d py12)', () => {
    const code = lines(['class Verifier(secret: String) {', '    private val key = secret.toByteArray()', '', '    fun expected(body: String): String {', '        return hmac(key, body)', '    }', '', '    fun verify(body: String, sig: String): Boolean {', '        return expected(body) == sig', '    }', '}']);
    const update = lines(['class Verifier(secret: String) {', '    // (key and expected() unchanged)', '', '    fun verify(body: String, sig: String): Boolean {', '        return constantTimeEquals(expected(body), sig)', '    }', '}']);
    const lossy = lines(['class Verifier(secret: String) {', '    // (key and expected() unchanged)', '', '    fun verify(body: String, sig: String): Boolean {', '        return constantTimeEquals(expected(body), sig)', '    }', '}']);
    const good = code.replace('return expected(body) == sig', 'return constantTimeEquals(expected(body), sig)');
    const lost = judged(code, update, lossy, good);
    expect(lost).toEqual(expect.arrayContaining([3, 4, 5]));
  });

  it('a deletion by anchors shown adjacent is still licensed (Kotlin)', () => {
    const code = lines(['class Verifier {', '    fun a() = 1', '', '    fun b() {', '        return', '    }', '', '    fun c() = 3', '}']);
    const update = lines(['class Verifier {', '    fun a() = 1', '', '    fun c() = 3', '}']);
    expect(checkLoss(code, update, null, update).lost).toEqual([]);
  });

  it('an Allman opener belongs to the head above it: anchors in the next function do not license (Java; set d c02)', () => {
    const code = lines(['int read(byte[] dst, int len)', '{', '    int n = len;', '    if (n > used() + 1)', '        n = used();', '    tail += n;', '    return n;', '}', '', 'int peek(byte[] dst, int len)', '{', '    int n = len;', '    if (n > used())', '        n = used();', '    return n;', '}']);
    const update = lines(['int read(byte[] dst, int len)', '{', '    int n = len;', '    if (n > used())', '        n = used();', '    // ... rest unchanged']);
    // The fixed lines equal peek's: read's tail and peek's head dropped.
    const lossy = lines(['int read(byte[] dst, int len)', '{', '    int n = len;', '    if (n > used())', '        n = used();', '    return n;', '}']);
    const good = code.replace('    if (n > used() + 1)', '    if (n > used())');
    expect(judged(code, update, lossy, good).length).toBeGreaterThan(0);
  });

  it('a key renamed at a marker edge is a new key unless the rename repeats in the update (TOML; set d tf03)', () => {
    const code = lines(['[database]', 'backup_days = 7', 'skip_snapshot = false', 'deletion_protection = true', 'tags = "prod"']);
    const update = lines(['[database]', '# ...', 'insights_enabled = true', 'tags = "prod"']);
    const lossy = code.replace('deletion_protection = true', 'insights_enabled = true');
    const good = code.replace('tags = "prod"', 'insights_enabled = true\ntags = "prod"');
    expect(judged(code, update, lossy, good)).toEqual([3]);
    // A longer form of the same key is its rename.
    expect(checkLoss(code, update.replace('insights_enabled', 'deletion_protection_enabled'), null, code.replace('deletion_protection = true', 'deletion_protection_enabled = true')).lost).toEqual([]);
  });
});

describe('no-loss oracle, branch lossf (held-out set f)', () => {
  it('annotations above a declaration are not licensed away when the update shows it under the line above them (Java; set f cs01)', () => {
    const code = lines(['package shop.api;', '', 'public final class Routes {', '    @RestController', '    @RequestMapping("/customers")', '    public static class Customers {', '        public List<Customer> all() {', '            return repo.list();', '        }', '    }', '}']);
    const update = lines(['public final class Routes {', '    public static class Customers {', '        // ... existing methods ...', '', '        public List<Customer> search(String q) {', '            return repo.search(q);', '        }', '    }', '}']);
    const good = code.replace('            return repo.list();\n        }\n', '            return repo.list();\n        }\n\n        public List<Customer> search(String q) {\n            return repo.search(q);\n        }\n');
    const lossy = good.replace('    @RestController\n    @RequestMapping("/customers")\n', '');
    expect(judged(code, update, lossy, good)).toEqual([3, 4]);
    // Plain statements between the same two anchors are still licensed (the update shows them adjacent).
    const plain = code.replace('    @RestController\n    @RequestMapping("/customers")\n', '    int x = 1;\n');
    expect(checkLoss(plain, update, null, good.replace('    @RestController\n    @RequestMapping("/customers")\n', '')).lost).toEqual([]);
  });

  it('a new comment alone where code stood stands for that code (Python; set f cpp06)', () => {
    const code = lines(['def remove_child(self, child):', '    idx = next(i for i, c in enumerate(self.children) if c is child)', '    found = self.children[idx]', '    if found is None:', '        return None', '    del self.children[idx]', '    return found']);
    const update = lines(['def remove_child(self, child):', '    # unchanged lookup', '    if found is None:', '        return None', '    del self.children[idx]', '    found.parent = None', '    return found']);
    const good = code.replace('    return found\n', '    found.parent = None\n    return found\n');
    const lossy = good.replace('    idx = next(i for i, c in enumerate(self.children) if c is child)\n    found = self.children[idx]\n', '');
    expect(judged(code, update, lossy, good)).toEqual([1, 2]);
  });

  it("a closer of the update's own block does not stand for the closer of the next block (Rust; set f proto01)", () => {
    const code = lines(['enum Status {', '    Pending,', '    Paid,', '}', '', 'struct LineItem {', '    sku: String,', '    quantity: u32,', '}', '', 'struct Order {', '    id: String,', '}']);
    const update = lines(['enum Status {', '    // ... existing variants ...', '    Paid,', '    Refunded,', '}', '', 'struct Order {', '    id: String,', '}']);
    const good = code.replace('    Paid,\n', '    Paid,\n    Refunded,\n');
    const lossy = good.replace('}\n\nstruct LineItem {\n    sku: String,\n    quantity: u32,\n', '');
    expect(judged(code, update, lossy, good).length).toBeGreaterThan(0);
  });

  it('an output line still holding an inline marker is no edit of the original line (Go; set f ts06)', () => {
    const code = lines(['var symbols = map[string]string{', '\t"USD": "$",', '\t"EUR": "€",', '}']);
    const update = lines(['var symbols = map[string]string{ /* ...existing... */ "CHF": "CHF ", "INR": "₹" }']);
    const good = code.replace('}\n', '\t"CHF": "CHF ",\n\t"INR": "₹",\n}\n');
    const lossy = code.replace('var symbols = map[string]string{\n', 'var symbols = map[string]string{ /* ...existing... */ "CHF": "CHF ", "INR": "₹" }\n');
    expect(judged(code, update, lossy, good)).toEqual([0]);
  });
});

describe('no-loss oracle, branch lossg (renames at a marker edge)', () => {
  it('a line grown or shrunk at one place is its edit (Ruby; generated edits, set f c01)', () => {
    expect(extendedInPlace("case 'max':", "case 'max (v2)':")).toBe(true);
    expect(extendedInPlace('def get_qty(self):', 'def get_quantity(self):')).toBe(true);
    expect(extendedInPlace('app.add_url_rule("/about", view_func=about)', 'app.add_url_rule("/faq", view_func=faq)')).toBe(false);
    expect(extendedInPlace('x = 1;', 'x = 1;;')).toBe(false);
    const code = lines(['def limit_for(kind)', '  case kind', '  when "min"', '    0', '  when "max"', '    100', '  end', 'end']);
    const update = lines(['def limit_for(kind)', '  case kind', '  when "min"', '    0', '  when "max (v2)"', '    # ... existing code ...']);
    expect(checkLoss(code, update, null, code.replace('"max"', '"max (v2)"')).lost).toEqual([]);
  });

  it('a rename carried through the lines the update shows in place licenses the renamed head and its block (Go; set c java04)', () => {
    const code = lines(['type Stock struct {', '\tsku string', '\tqty int', '\tupdated time.Time', '}', '', 'func (s *Stock) Qty() int {', '\treturn s.qty', '}', '', 'func (s *Stock) Ship(n int) {', '\ts.qty -= n', '\ts.updated = time.Now()', '}']);
    const update = lines(['type Stock struct {', '\tsku string', '\tquantity int', '\tupdated time.Time', '}', '', '// ... existing code ...', '', 'func (s *Stock) Quantity() int {', '\treturn s.quantity', '}', '', 'func (s *Stock) Ship(n int) {', '\ts.quantity -= n', '\ts.updated = time.Now()', '}']);
    const good = code.replaceAll('qty', 'quantity').replace('Qty()', 'Quantity()');
    expect(checkLoss(code, update, null, good).lost).toEqual([]);
  });

  it('new code that uses a new name beside a copied original is no rename (Python; set d ex02)', () => {
    const code = lines(['def check(key):', '    return call("check", key)', '', 'def reset(key):', '    return cast("reset", key)', '', 'def handle_check(state, key):', '    used = state.hits(key)', '    return used < state.limit', '', 'def handle_reset(state, key):', '    state.clear(key)']);
    const update = lines(['def reset(key):', '    return cast("reset", key)', '', 'def remaining(key):', '    return call("remaining", key)', '', '# ... check handler unchanged ...', '', 'def handle_remaining(state, key):', '    used = state.hits(key)', '    return max(state.limit - used, 0)', '', 'def handle_reset(state, key):', '    # ... existing code ...']);
    const good = code.replace('    return cast("reset", key)\n', '    return cast("reset", key)\n\ndef remaining(key):\n    return call("remaining", key)\n').replace('def handle_reset', 'def handle_remaining(state, key):\n    used = state.hits(key)\n    return max(state.limit - used, 0)\n\ndef handle_reset');
    const lossy = good.replace('def handle_check(state, key):\n    used = state.hits(key)\n    return used < state.limit\n\n', '');
    expect(judged(code, update, lossy, good)).toEqual([6, 8]);
  });

  it('a key renamed with a value of substance kept is that setting renamed; a bare value says nothing (TOML; generated edits)', () => {
    const code = lines(['[server]', 'listen_addr = "0.0.0.0:8080"', 'read_timeout = "30s"', 'verbose = true', 'tls = false']);
    const update = lines(['[server]', 'bind_addr = "0.0.0.0:8080"', '# ... existing keys ...']);
    expect(checkLoss(code, update, null, code.replace('listen_addr', 'bind_addr')).lost).toEqual([]);
    const bare = lines(['[server]', 'listen_addr = "0.0.0.0:8080"', 'read_timeout = "30s"', 'debug = true', '# ... existing keys ...']);
    expect(checkLoss(code, bare, null, code.replace('verbose = true', 'debug = true')).lost).toEqual([3]);
  });

  it('a marker inside a line between two anchors stands for code: the lines it covers are not licensed by adjacency (Kotlin; set h c05)', () => {
    const code = lines(['val commands = listOf(', '    "get",', '    "set",', '    "del",', ')', '', 'fun main() = run(commands)']);
    // The text after the marker is no original line: the line cannot be read as a run and stays as written.
    const update = lines(['val commands = listOf(', '    "get", /* ... */ "delete",', '    "touch",', ')', '// ... existing code ...']);
    const lossy = lines(['val commands = listOf(', '    "get", /* ... */ "delete",', '    "touch",', ')', '', 'fun main() = run(commands)']);
    expect(checkLoss(code, update, null, lossy).lost).toEqual([1, 2, 3]);
    const { content } = restoreLost(code, update, null, lossy);
    expect(checkLoss(code, update, null, content).lost).toEqual([]);
  });

  it('a marker comment after an opening bracket that cannot be placed stands for code (JavaScript; set h hs01)', () => {
    const code = lines(['export const routes = [', '  { path: "/a", handler: a },', '  { path: "/b", handler: b },', '];', '', 'export default routes;']);
    const update = lines(['export const routes = [ // ...', '  { path: "/c", handler: c },', '];', '// ... existing code ...']);
    const lossy = lines(['export const routes = [ // ...', '  { path: "/c", handler: c },', '];', '', 'export default routes;']);
    expect(checkLoss(code, update, null, lossy).lost).toEqual([0, 1, 2]);
    const { content } = restoreLost(code, update, null, lossy);
    expect(checkLoss(code, update, null, content).lost).toEqual([]);
  });

  it('a rename the instruction names licenses the renamed kept lines, and only with that instruction (TypeScript; set h go05, kt03)', () => {
    const code = lines(['export function loadUser(id: string) {', '  return db.get(id);', '}', '', 'export function show(id: string) {', '  const u = loadUser(id);', '  render(u);', '}']);
    const update = lines(['export function fetchUser(id: string) {', '  return db.get(id);', '}', '// ... existing code ...']);
    const renamed = code.replaceAll('loadUser', 'fetchUser');
    expect(checkLoss(code, update, 'Rename loadUser to fetchUser everywhere.', renamed).lost).toEqual([]);
    expect(checkLoss(code, update, null, renamed).lost).toEqual([5]);
  });
});

describe('no-loss oracle, branch lossi (insertions read as edits or deletions)', () => {
  it('new code after an anchor whose repeated line only equals the next check does not replace the statement before that check (Ruby; set g go05)', () => {
    const code = lines(['def load_config(env)', '  cfg = Config.new', '  wt, err = duration_env(env, "WRITE_TIMEOUT", 15)', '  if err', '    return nil', '  end', '  cfg.write_timeout = wt',
      '  mb, err = parse_size(env.fetch("MAX_BODY_BYTES", "1048576"))', '  if err', '    raise ConfigError, "MAX_BODY_BYTES must be a size"', '  end', '  cfg.max_body_bytes = mb', '  cfg', 'end']);
    const update = lines(['# ... existing code ...', '  cfg.write_timeout = wt', '  rt, err = duration_env(env, "READ_TIMEOUT", 5)', '  if err', '    return nil', '  end', '  cfg.read_timeout = rt', '# ... existing code ...']);
    const rt = ['  rt, err = duration_env(env, "READ_TIMEOUT", 5)', '  if err', '    return nil', '  end', '  cfg.read_timeout = rt'];
    const o = code.split('\n');
    const good = lines([...o.slice(0, 7), ...rt, ...o.slice(7, 14)]);
    // The merge's old reading: the new `rt, err = …` stands where `mb, err = …` stood, the original check kept.
    const lossy = lines([...o.slice(0, 7), rt[0]!, '  if err', '    return nil', '    raise ConfigError, "MAX_BODY_BYTES must be a size"', '  end', '  cfg.read_timeout = rt', ...o.slice(11, 14)]);
    expect(judged(code, update, lossy, good)).toEqual([7]);
    // A real edit of that statement in the same place stays licensed.
    const edited = code.replace('parse_size(env.fetch("MAX_BODY_BYTES", "1048576"))', 'parse_size(env.fetch("MAX_BODY", "1048576"))');
    const editUpdate = lines(['# ... existing code ...', '  cfg.write_timeout = wt', '  mb, err = parse_size(env.fetch("MAX_BODY", "1048576"))', '  if err', '# ... existing code ...']);
    expect(checkLoss(code, editUpdate, null, edited).lost).toEqual([]);
  });

  it('a one-line let definition names its function: a new function written after it is no edit of it (F#; set g ml01)', () => {
    expect(lineIdentity('let add x y = x + y')).toBe('def add');
    expect(lineIdentity('let inline square x = x * x')).toBe('def square');
    expect(lineIdentity('let mutable total = 0')).toBe(null);
    expect(lineIdentity('let total = List.sum xs')).toBe(null);
    const code = lines(['module Calc', '', 'let add x y = x + y', '', 'let sub x y = x - y']);
    const update = lines(['// ... existing code ...', 'let addChecked x y =', '    if x > 0 && y > System.Int32.MaxValue - x then None', '    else Some (add x y)', '// ... existing code ...']);
    const fn = ['let addChecked x y =', '    if x > 0 && y > System.Int32.MaxValue - x then None', '    else Some (add x y)'];
    const good = lines(['module Calc', '', 'let add x y = x + y', '', ...fn, '', 'let sub x y = x - y']);
    const lossy = lines(['module Calc', '', ...fn, '', 'let sub x y = x - y']);
    expect(judged(code, update, lossy, good)).toEqual([2]);
  });
});
