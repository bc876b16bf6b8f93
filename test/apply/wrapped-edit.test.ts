// Branch wrapz: a run of statements wrapped in a new block (a retry loop, a `do`/`try`), one of its
// lines edited on the way. The edited line sits one level deeper among new lines, so neither its
// depth nor its enclosing block says which original line it is; its own neighbours, moved by the same
// amount beside it, do (wrapped-run.ts movedEdit). Written in Swift and C#, not the languages of the
// cases that revealed the class (Go, Dart, Python/Kotlin/PHP/Ruby probes); both fail without the rule.
// The control (Python twins): a kept original line that reads as the edit just as well leaves j lost.
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { lines, mergedEverywhere } from './judged.js';

describe('wrapz: an edited line moved into a new block with its neighbours is its original line edited', () => {
  it('swift: request settings wrapped in an if, the middle one edited', () => {
    const head = [
      'import Foundation', '', 'final class FeedLoader {', '    private let session: URLSession', '',
      '    init(session: URLSession = .shared) {', '        self.session = session', '    }', '',
      '    func load(from url: URL) async throws -> [Item] {', '        var request = URLRequest(url: url)',
    ];
    const tail = [
      '        let (data, _) = try await session.data(for: request)', '        return try JSONDecoder().decode([Item].self, from: data)', '    }', '',
      '    func cancel() {', '        session.invalidateAndCancel()', '    }', '}',
    ];
    const original = lines([...head,
      '        request.timeoutInterval = 10',
      '        request.cachePolicy = .reloadIgnoringLocalCacheData',
      '        request.setValue("application/json", forHTTPHeaderField: "Accept")',
      ...tail]);
    const wrapped = [
      '        if !url.isFileURL {',
      '            request.timeoutInterval = 10',
      '            request.cachePolicy = .returnCacheDataElseLoad',
      '            request.setValue("application/json", forHTTPHeaderField: "Accept")',
      '        }',
    ];
    const update = lines(['    func load(from url: URL) async throws -> [Item] {', '        var request = URLRequest(url: url)', ...wrapped, tail[0]!, '        // ... existing code ...']);
    mergedEverywhere(original, update, lines([...head, ...wrapped, ...tail]));
  });

  it('c#: a save wrapped in a retry loop, its log line edited, a marker on each side', () => {
    const head = [
      'namespace Shop.Orders', '{', '    public sealed class OrderSaver', '    {', '        private readonly IOrderStore _store;', '',
      '        public OrderSaver(IOrderStore store) => _store = store;', '',
      '        public async Task SaveAsync(Order order, CancellationToken ct)', '        {',
      '            order.UpdatedAt = DateTimeOffset.UtcNow;',
    ];
    const tail = ['            order.MarkClean();', '        }', '    }', '}'];
    const original = lines([...head,
      '            await _store.UpsertAsync(order, ct);',
      '            Console.WriteLine($"saved order {order.Id}");',
      ...tail]);
    const wrapped = [
      '            for (var attempt = 1; ; attempt++)',
      '            {',
      '                try',
      '                {',
      '                    await _store.UpsertAsync(order, ct);',
      '                    Console.WriteLine($"saved order {order.Id} on attempt {attempt}");',
      '                    break;',
      '                }',
      '                catch (TimeoutException) when (attempt < 3)',
      '                {',
      '                    await Task.Delay(200 * attempt, ct);',
      '                }',
      '            }',
    ];
    const update = lines(['            // ... existing code ...', '            order.UpdatedAt = DateTimeOffset.UtcNow;', ...wrapped, '            order.MarkClean();', '            // ... existing code ...']);
    mergedEverywhere(original, update, lines([...head, ...wrapped, ...tail]));
  });

  it('python: twin blocks, the edit read as either twin, the other twin kept (control)', () => {
    const twin = (name: string, v: string): string[] => [
      `def ${name}(rows):`, '    total = 0', '    for row in rows:', '        total += row.amount', `        log(${v})`, '    return total', '',
    ];
    const original = lines([...twin('net', 'row'), ...twin('gross', 'item')]);
    const update = lines(['    for row in rows:', '        try:', '            total += row.amount', '            log(rowNext)', '        except ValueError:', '            pass', '    # ... existing code ...']);
    // The wrap placed in the first twin, its `log(row)` gone; `log(item)` of the second kept reads as the edit as well.
    const output = lines([
      'def net(rows):', '    total = 0', '    for row in rows:', '        try:', '            total += row.amount', '            log(rowNext)', '        except ValueError:', '            pass', '    return total', '',
      ...twin('gross', 'item'),
    ]);
    expect(checkLoss(original, update, null, output).lost).toEqual([4]);
  });
});
