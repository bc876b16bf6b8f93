// Branch hunksx: one change carried through several hunks. (1) A head edited with the first lines of
// its body rewritten, shown as the hunk's first line: the dropped body lines lie between the edited
// head and a body line the update shows right after the new lines, and are replaced there
// (between-edits.ts; set ay swift15). (2) A worded marker naming a Ruby or Elixir function whose name
// ends in `!` or `?` is a marker (marker-wordings.ts; sets au ex01, ad rb02). Written in Kotlin and
// Crystal-style Ruby, not the languages of the cases. Control: fewer new lines than the lines between
// two edits do not license them (a lossy reading of that update stays lossy to the oracle).
import { describe, expect, it } from 'vitest';
import { judged, lines, mergedEverywhere } from './judged.js';

describe('hunksx: an edited head whose first body lines are rewritten', () => {
  it('kotlin: a parameter added, the first statement replaced by two, a caller in another hunk', () => {
    const file = (head: string, body: string[], caller: string[]): string => lines([
      'class Api(private val client: Client, private val baseUrl: Url) {', '',
      `    fun fetch(${head}): Response {`, ...body, '        request.header("Accept", "application/json")', '        return client.send(request)', '    }', '',
      ...caller, '}',
    ]);
    const newBody = ['        val builder = UrlBuilder(baseUrl.resolve(path))', '        query.forEach { (k, v) -> builder.add(k, v) }', '        val request = Request.get(builder.build())'];
    const newCaller = ['    fun user(id: Long, fields: String): Response {', '        return fetch("users/$id", mapOf("fields" to fields))', '    }'];
    const head = 'path: String, query: Map<String, String> = emptyMap()';
    const code = file('path: String', ['        val url = baseUrl.resolve(path)', '        val request = Request.get(url)'], ['    fun user(id: Long): Response {', '        return fetch("users/$id")', '    }']);
    const update = lines([`    fun fetch(${head}): Response {`, ...newBody, '        request.header("Accept", "application/json")', '        // ... unchanged ...', '    }', '', ...newCaller, '}']);
    mergedEverywhere(code, update, file(head, newBody, newCaller));
  });

  it('control: one new line between two edits does not stand for three original lines', () => {
    const code = lines([
      'fun total(items: List<Item>): Int {', '    var sum = 0', '    for (item in items) {', '        sum += item.price', '    }', '    val tax = sum / 10', '    return sum + tax', '}',
    ]);
    const update = lines(['fun total(items: List<Item>, discount: Int): Int {', '    var sum = -discount', '    val tax = maxOf(sum, 0) / 10', '    // ... rest unchanged ...', '}']);
    const good = lines([
      'fun total(items: List<Item>, discount: Int): Int {', '    var sum = -discount', '    for (item in items) {', '        sum += item.price', '    }', '    val tax = maxOf(sum, 0) / 10', '    return sum + tax', '}',
    ]);
    const lossy = lines(['fun total(items: List<Item>, discount: Int): Int {', '    var sum = -discount', '    val tax = maxOf(sum, 0) / 10', '    return sum + tax', '}']);
    expect(judged(code, update, lossy, good)).toEqual([2, 3, 4]);
  });
});

describe('hunksx: a worded marker naming a function that ends in ! or ?', () => {
  it('ruby: `# ... save! and valid? unchanged ...` keeps what it stands for', () => {
    const code = lines([
      'class Order', '  def save!', '    validate!', '    persist', '  end', '', '  def valid?', '    errors.empty?', '  end', '',
      '  def total', '    items.sum(&:price)', '  end', 'end',
    ]);
    const update = lines(['class Order', '  # ... save! and valid? unchanged ...', '', '  def total(discount = 0)', '    items.sum(&:price) - discount', '  end', 'end']);
    const expected = lines([
      'class Order', '  def save!', '    validate!', '    persist', '  end', '', '  def valid?', '    errors.empty?', '  end', '',
      '  def total(discount = 0)', '    items.sum(&:price) - discount', '  end', 'end',
    ]);
    mergedEverywhere(code, update, expected);
  });
});
