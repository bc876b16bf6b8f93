// Guards of branch siby (docs/apply.md): a definition the update shows whole under a name the original
// has nowhere is new, even when its body copies the sibling next to it line for line; it goes where the
// segment's other anchors say, and the sibling stays. Revealed by held-out cases in C (ai c02, a sysfs
// attribute copied before the next one) and C# (ai cs01, a method whose parameters go on below its
// head); the guards are in Swift and Java, and a Go rename whose body is unchanged is the control (it
// must stay a rename in place).
import { describe, it } from 'vitest';
import { lines, mergedEverywhere as mergesTo } from './judged.js';

// Swift: a new view-model loader copied from the one after it, shown after the stored properties.
const swiftLoader = (name: string, path: string, extra: string[] = []): string[] => [
  `    func ${name}() async throws -> [Item] {`, `        let request = URLRequest(url: baseURL.appendingPathComponent("${path}"))`,
  '        let (data, _) = try await session.data(for: request)', ...extra, '        return try decoder.decode([Item].self, from: data)', '    }'];
const swiftHead = ['import Foundation', '', 'final class FeedClient {', '    let baseURL: URL', '    let session: URLSession', '    let decoder = JSONDecoder()', ''];
const swiftRest = [...swiftLoader('loadLatest', 'latest'), '', ...swiftLoader('loadPopular', 'popular'), '}'];
const swiftNew = swiftLoader('loadSaved', 'saved', ['        try Task.checkCancellation()']);
const swiftCode = lines([...swiftHead, ...swiftRest]);
const swiftUpdate = lines(['    let session: URLSession', '    let decoder = JSONDecoder()', '', ...swiftNew, '', '    // ... existing code ...']);
const swiftExpected = lines([...swiftHead, ...swiftNew, '', ...swiftRest]);

// Java: a new method whose parameters go on below its head, under the shown class head.
const javaMethod = (name: string, status: string): string[] => [
  `    public List<Ticket> ${name}(`, '            String queue,', '            int max) {',
  '        List<Ticket> tickets = store.findByQueue(queue);', `        return tickets.stream().filter(t -> t.status() == Status.${status}).limit(max).toList();`, '    }'];
const javaHead = ['package support.tickets;', '', 'import java.util.List;', '', 'public class TicketQueries {', '    private final TicketStore store;', '',
  '    public TicketQueries(TicketStore store) {', '        this.store = store;', '    }', ''];
const javaMembers = [...javaMethod('open', 'OPEN'), '', ...javaMethod('pending', 'PENDING')];
const javaNew = javaMethod('escalated', 'ESCALATED');
const javaCode = lines([...javaHead, ...javaMembers, '}']);
const javaUpdate = lines(['public class TicketQueries {', '    // ... existing code ...', '', ...javaNew, '}']);
const javaExpected = lines([...javaHead, ...javaMembers, '', ...javaNew, '}']);

// Go: a function renamed with its body unchanged, shown with the next function's head: a rename in place.
const goHead = ['package cache', '', 'import "time"', ''];
const goOld = ['func expired(e entry, now time.Time) bool {', '\treturn !e.deadline.IsZero() && now.After(e.deadline)', '}'];
const goNext = ['func (c *Cache) Get(key string) (string, bool) {', '\te, ok := c.items[key]', '\tif !ok || expired(e, time.Now()) {', '\t\treturn "", false', '\t}', '\treturn e.value, true', '}'];
const goRenamed = ['func isExpired(e entry, now time.Time) bool {', ...goOld.slice(1)];
const goCode = lines([...goHead, ...goOld, '', ...goNext]);
const goUpdate = lines(['import "time"', '', ...goRenamed, '', 'func (c *Cache) Get(key string) (string, bool) {', '\t// ... existing code ...', '}']);
const goExpected = lines([...goHead, ...goRenamed, '', ...goNext]);

describe('siby: a new definition written like its sibling', () => {
  it('Swift: a loader copied from the next one goes after the shown properties, the next one stays', () => mergesTo(swiftCode, swiftUpdate, swiftExpected));
  it('Java: a new method with its parameters below its head goes at the class end', () => mergesTo(javaCode, javaUpdate, javaExpected));
  it('Go (control): a function renamed with its body unchanged is renamed in place', () => mergesTo(goCode, goUpdate, goExpected));
});
