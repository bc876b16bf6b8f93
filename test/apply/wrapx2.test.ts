// Branch wrapx2: a wrapped loop body shown up to a marker for the rest of the block, then the
// enclosing function's weak last line (`return result`, `return true`) with no marker after it. The
// line anchors nowhere (weak), so it was placed at the file's end as a new line; it resumes after the
// block the marker stands for when the original has that very line there. Other texts than the cases
// and probes that showed the class.
import { describe, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';

describe('wrapx2: a weak line after a marker for the rest of a wrapped block', () => {
  it('python: a call wrapped in `try` inside a loop, `# ...` at the loop body\'s depth, then `return result`', () => {
    const head = ['def totals(orders):', '    result = {}', '    for order in orders:'];
    const rest = ['        key = order.customer', '        result[key] = result.get(key, 0) + amount'];
    const tail = ['    return result', '', '', 'def report(orders):', '    for key, value in totals(orders).items():', '        print(key, value)'];
    const original = lines([...head, '        amount = price(order)', ...rest, ...tail]);
    const wrapped = ['        try:', '            amount = price(order)', '        except PriceError:', '            continue'];
    const update = lines([...head, ...wrapped, '        # ... rest of loop unchanged ...', '    return result']);
    mergedEverywhere(original, update, lines([...head, ...wrapped, ...rest, ...tail]));
  });

  it('nim: the loop body\'s `if` shown with a deeper marker, then the proc\'s `return true`', () => {
    const head = ['proc saveAll(db: DbConn, items: seq[Item]): bool =', '  for item in items:'];
    const rest = ['      return false', '    inc saved'];
    const tail = ['  return true', '', 'proc main() =', '  quit(if saveAll(open(), load()): 0 else: 1)'];
    const original = lines([...head, '    let ok = db.tryExec(insertSql, item.id, item.name)', '    if not ok:', ...rest, ...tail]);
    const wrapped = ['    var ok = false', '    for attempt in 1..3:', '      ok = db.tryExec(insertSql, item.id, item.name)', '      if ok: break'];
    const update = lines([...head, ...wrapped, '    if not ok:', '      # ... unchanged', '  return true']);
    mergedEverywhere(original, update, lines([...head, ...wrapped, '    if not ok:', ...rest, ...tail]));
  });
});
