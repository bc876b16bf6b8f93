// Inline markers (src/apply/inline-markers.ts): a marker element inside a bracketed list stands for
// the original line's elements at that place, in every bracket kind and marker spelling; real `...`
// syntax (spread, varargs, Ellipsis) and uncertain matches are left as written.
import { describe, expect, it } from 'vitest';
import { bracketLists, isMarkerElement } from '../../src/apply/inline-elements.js';
import { expandInlineMarkers } from '../../src/apply/inline-markers.js';

const expand = (update: string, code: string) => expandInlineMarkers(update, code);

describe('bracketLists', () => {
  it('splits each list into trimmed elements, inner lists first, quotes and comments as atoms', () => {
    const line = 'f(a, ["x, y", /* ... */], g(b))';
    const lists = bracketLists(line)!;
    const texts = lists.map((l) => l.elements.map((e) => line.slice(e.start, e.end)));
    expect(texts).toEqual([['"x, y"', '/* ... */'], ['b'], ['a', '["x, y", /* ... */]', 'g(b)']]);
  });
  it('reports a list that goes on past the line, and refuses brackets that do not pair', () => {
    const lists = bracketLists('call(a, b,')!;
    expect(lists[0]!.close).toBe(-1);
    expect(bracketLists('f(a]')).toBeNull();
  });
  it("reads an apostrophe inside a word as text, not a quote (YAML plain scalars)", () => {
    const line = "tags: [don't, ...]";
    const l = bracketLists(line)!;
    expect(l[0]!.elements.map((e) => line.slice(e.start, e.end))).toEqual(["don't", '...']);
  });
});

describe('isMarkerElement', () => {
  it('takes bare dots and marker comments, not spread, varargs, ranges or strings', () => {
    for (const t of ['...', '…', '/* ... */', '/* ... existing items ... */', '<!-- ... -->', '{/* ... */}']) expect(isMarkerElement(t)).toBe(true);
    for (const t of ['...args', 'args...', '..', '"..."', "'...'", '/* keep sorted */', '..Default::default()']) expect(isMarkerElement(t)).toBe(false);
  });
});

describe('expandInlineMarkers', () => {
  it('square brackets: a marker first stands for the elements before the first shown one', () => {
    const code = 'export const ENVS = ["dev", "test", "prod"] as const;\n';
    expect(expand('export const ENVS = [/* ... */, "staging", "prod"] as const;\n', code)).toBe('export const ENVS = ["dev", "test", "staging", "prod"] as const;\n');
  });
  it('a call element edited before a marker is that call, when both lists call its callee once (28ca ts01)', () => {
    const code = 'const adminOnly = [requireAuth, requireRole("admin"), rateLimit({ perMinute: 30 }), audit("reports")];\n';
    expect(expand('const adminOnly = [requireAuth, requireRole("admin", "finance"), /* ... */];\n', code)).toBe('const adminOnly = [requireAuth, requireRole("admin", "finance"), rateLimit({ perMinute: 30 }), audit("reports")];\n');
    // Control: a callee the original calls twice is no key; the marker keeps every element after the last match.
    const twice = 'const guards = [requireAuth, requireRole("admin"), requireRole("ops"), audit("x")];\n';
    expect(expand('const guards = [requireAuth, requireRole("finance"), /* ... */];\n', twice)).toBe('const guards = [requireAuth, requireRole("finance"), requireRole("admin"), requireRole("ops"), audit("x")];\n');
  });
  it('round brackets: a call argument list, the marker standing for every original argument', () => {
    const code = 'def run():\n    result = compute(a, b=2, *rest)\n';
    expect(expand('    result = compute(..., timeout=5)\n', code)).toBe('    result = compute(a, b=2, *rest, timeout=5)\n');
  });
  it('curly brackets: a Go composite literal and a C enum, marker between two shown elements', () => {
    const go = 'var sizes = []int{1, 2, 4, 8, 16}\n';
    expect(expand('var sizes = []int{1, …, 16, 32}\n', go)).toBe('var sizes = []int{1, 2, 4, 8, 16, 32}\n');
    const c = 'enum color { RED, GREEN, BLUE };\n';
    expect(expand('enum color { /* ... */, BLUE, ALPHA };\n', c)).toBe('enum color { RED, GREEN, BLUE, ALPHA };\n');
  });
  it("keeps the original's separators and spacing inside the part the marker stands for", () => {
    const code = '$breakpoints: (sm: 640px, md: 768px,  ml: 900px,lg: 1024px);\n';
    expect(expand('$breakpoints: (sm: 640px, /* ... */, lg: 1024px, xl: 1280px);\n', code)).toBe('$breakpoints: (sm: 640px, md: 768px,  ml: 900px, lg: 1024px, xl: 1280px);\n');
  });
  it('a marker last keeps the original elements after the ones shown', () => {
    const code = 'val xs = listOf("a", "b", "c")\n';
    expect(expand('val xs = listOf("z", "a", /* ... */)\n', code)).toBe('val xs = listOf("z", "a", "b", "c")\n');
  });
  it('nested lists: the inner marker expands inside the outer list', () => {
    const code = 'config = {"hosts": ["a", "b"], "port": 80}\n';
    expect(expand('config = {"hosts": [..., "c"], "port": 80}\n', code)).toBe('config = {"hosts": ["a", "b", "c"], "port": 80}\n');
  });
  it('several original lines with the same head: the one between the unique lines around it', () => {
    const code = ['variable "a" {', '  default = ["1", "2"]', '}', 'variable "b" {', '  default = ["3", "4"]', '}', ''].join('\n');
    const update = ['variable "b" {', '  default = [..., "5"]', '}', ''].join('\n');
    expect(expand(update, code)).toBe(['variable "b" {', '  default = ["3", "4", "5"]', '}', ''].join('\n'));
  });
  it('several original lines with the same head and nothing to tell them apart: left as written', () => {
    const code = ['a:', '  enum: [x, y]', 'b:', '  enum: [x, y]', ''].join('\n');
    const update = ['# ...', '  enum: [..., z]', '# ...', ''].join('\n');
    expect(expand(update, code)).toBe(update);
  });
  it('real syntax stays: spread, varargs the original has too, Ellipsis in the original list', () => {
    expect(expand('f(...args, 1)\n', 'f(a, 1)\n')).toBe('f(...args, 1)\n');
    expect(expand('int printf(const char *fmt, ...);\n', 'int printf(const char *fmt, ...);\n')).toBe('int printf(const char *fmt, ...);\n');
    expect(expand('x = arr[..., 1]\n', 'x = arr[..., 0]\n')).toBe('x = arr[..., 1]\n');
  });
  it('a marker that would stand for nothing is left as written (new C varargs)', () => {
    const code = 'void log_msg(int level, const char *fmt);\n';
    const update = 'void log_msg(int level, const char *fmt, ...);\n';
    expect(expand(update, code)).toBe(update);
  });
  it('two markers between the same shown elements are not certain: left as written', () => {
    const code = 'xs = [1, 2, 3]\n';
    expect(expand('xs = [..., 9, ...]\n', code)).toBe('xs = [..., 9, ...]\n');
  });
  it("keeps the original line's end when the update only closes the statement the next line continues", () => {
    const code = ['    var post = await db.FindAsync(new object[] { id }, ct)', '        ?? throw new KeyNotFoundException();', ''].join('\n');
    expect(expand('    var post = await db.FindAsync(/* ... */);\n', code)).toBe('    var post = await db.FindAsync(new object[] { id }, ct)\n');
  });
  it('keeps CRLF line ends', () => {
    expect(expand('xs = [..., 3]\r\nys = 1\r\n', 'xs = [1, 2]\r\n')).toBe('xs = [1, 2, 3]\r\nys = 1\r\n');
  });
});

describe('expandInlineMarkers: lists without brackets and subscripts', () => {
  it('a CSS value list after the property name', () => {
    const code = 'body {\n  font-family: Inter, "Helvetica Neue", Arial, sans-serif;\n}\n';
    expect(expand('  font-family: "Geist", /* ... */, sans-serif;\n', code)).toBe('  font-family: "Geist", Inter, "Helvetica Neue", Arial, sans-serif;\n');
  });
  it('a Python import list', () => {
    const code = 'from os.path import join, dirname, basename\n';
    expect(expand('from os.path import ..., exists\n', code)).toBe('from os.path import join, dirname, basename, exists\n');
  });
  it('a lone `= ...` is a value (Python stubs), not a list', () => {
    expect(expand('x: int = ...\n', 'x: int = 5\n')).toBe('x: int = ...\n');
  });
  it('bare dots in a subscript are typing / indexing syntax', () => {
    const code = 'def register(fn: Callable[[int], int]) -> None:\n';
    const update = 'def register(fn: Callable[..., int]) -> None:\n';
    expect(expand(update, code)).toBe(update);
    expect(expand('    shape: Tuple[int, ...]\n', '    shape: Tuple[int, str]\n')).toBe('    shape: Tuple[int, ...]\n');
  });
});

describe('expandInlineMarkers: glued markers, keyed elements, lists without commas (branch text3)', () => {
  it('a marker comment written against the next or previous element, without its comma', () => {
    const scss = '$bp: (sm: 576px, md: 768px, lg: 992px, xl: 1200px);\n';
    expect(expand('$bp: (sm: 576px, /* ... */ xl: 1200px);\n', scss)).toBe(scss);
    const hcl = '  groups = [aws_sg.app.id, aws_sg.worker.id]\n';
    expect(expand('  groups = [aws_sg.app.id, /* ... */ aws_sg.bastion.id]\n', hcl)).toBe('  groups = [aws_sg.app.id, aws_sg.worker.id, aws_sg.bastion.id]\n');
    const ts = 'const xs = [1, 2, 3, 4];\n';
    expect(expand('const xs = [1, /* ... */, 5];\n', ts)).toBe('const xs = [1, 2, 3, 4, 5];\n');
    expect(expand('const xs = [0, 1 /* ... */];\n', ts)).toBe('const xs = [0, 1, 2, 3, 4];\n');
  });
  it('a keyed element shown after a marker is that element edited, not one more', () => {
    const toml = 'sqlx = { version = "0.7", default-features = false, features = ["macros"] }\n';
    expect(expand('sqlx = { ..., features = ["macros", "uuid"] }\n', toml)).toBe('sqlx = { version = "0.7", default-features = false, features = ["macros", "uuid"] }\n');
    // `==` is a comparison, not a key: no element is taken as edited.
    expect(expand('assert_all(..., x == 2)\n', 'assert_all(a, b, x == 1)\n')).toBe('assert_all(a, b, x == 1, x == 2)\n');
  });
  it('a list without commas, word by word (shell arrays, CMake arguments); quotes and inner brackets are atoms', () => {
    const sh = 'DATABASES=(app analytics "audit log" $(tenant dbs) billing)\n';
    expect(expand('DATABASES=(app ... billing reports)\n', sh)).toBe('DATABASES=(app analytics "audit log" $(tenant dbs) billing reports)\n');
    // A list with commas is read by its commas: the word reading does not apply.
    expect(expand('f(a ... b)\n', 'f(a, x, b)\n')).toBe('f(a ... b)\n');
  });
});

describe('expandInlineMarkers: URLs, collapsed values, lists spread over rows (branch shapek)', () => {
  it("a URL's scheme is no key: a marker before a new URL stands for the URLs before it", () => {
    const conf = 'origins = https://a.example.com, https://b.example.com\n';
    expect(expand('origins = …, https://c.example.com\n', conf)).toBe('origins = https://a.example.com, https://b.example.com, https://c.example.com\n');
  });
  it('a list of nothing but a marker is the original list, its spacing inside the brackets kept', () => {
    const php = "$client = new Client(['base_uri' => $url, 'headers' => [ 'Accept' => 'json' ]]);\n";
    expect(expand("$client = new Client(['base_uri' => $url, 'headers' => [...]]);\n", php)).toBe(php);
  });
  it('a keyed element whose value is only a marker is the original element of that key', () => {
    const kt = 'val req = Request(url = base, headers = mapOf("A" to "1"), timeout = 5)\n';
    expect(expand('val req = Request(url = base, retries = 2, headers = (...), timeout = 9)\n', kt)).toBe('val req = Request(url = base, retries = 2, headers = mapOf("A" to "1"), timeout = 9)\n');
    // No original element of that key: nothing is expanded.
    expect(expand('val req = Request(url = base, body = (...))\n', kt)).toBe('val req = Request(url = base, body = (...))\n');
  });
  it('a one-line marker for a list the original spreads one element a row is written back in that layout', () => {
    const rs = 'use crate::{\n    config,\n    store,\n};\n';
    expect(expand('use crate::{/* ... */, metrics};\n', rs)).toBe('use crate::{\n    config,\n    store,\n    metrics,\n};\n');
    const go = 'var names = []string{\n\t"a",\n\t"b",\n}\n';
    expect(expand('var names = []string{..., "c"}\n', go)).toBe('var names = []string{\n\t"a",\n\t"b",\n\t"c",\n}\n');
    // Rows holding two elements are not one element a row: left as written.
    expect(expand('xs = [..., 5]\n', 'xs = [\n    1, 2,\n    3,\n]\n')).toBe('xs = [..., 5]\n');
  });
});
