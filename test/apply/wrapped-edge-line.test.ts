// Branch edgez: an edited line at a hunk's edge, next to a marker, with no neighbour on the marker's
// side to vouch for it: when it holds the original line there whole, wrapped in new text at word
// boundaries (`serve(addr)` → `log.Fatal(serve(addr))`, `prices.clear()` →
// `synchronized(lock) { prices.clear() }`), it replaces that line instead of going in beside it
// (edge-line-edit.ts wrapsWholeLine, merge-finish.ts edgeMatch). Written in Go, Kotlin and Lua,
// not the language of the cases that revealed the class (Rust, TypeScript). The first two fail without
// the rule; the control checks that a member use (`send(items).done`) or a longer name is no wrap.
import { describe, expect, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';
import { wrapsWholeLine } from '../../src/apply/edge-line-edit.js';

describe('edgez: a line wrapped whole at a hunk edge is its original line edited', () => {
  it('go: the last call of main wrapped in log.Fatal, right after a marker', () => {
    const file = (last: string): string => lines([
      'package main', '', 'import (', '\t"log"', '\t"net/http"', ')', '',
      'func serve(addr string) error {', '\treturn http.ListenAndServe(addr, nil)', '}', '',
      'func main() {', '\taddr := ":8080"', '\tlog.Printf("listening on %s", addr)', `\t${last}`, '}',
    ]);
    const update = lines(['func main() {', '\t// ... existing code ...', '\tlog.Fatal(serve(addr))', '}']);
    mergedEverywhere(file('serve(addr)'), update, file('log.Fatal(serve(addr))'));
  });

  it('kotlin: the first body line wrapped in a lock, right before a marker', () => {
    const file = (body: string): string => lines([
      'class Counter {', '    private val lock = Any()', '    private val seen = HashSet<String>()', '',
      '    fun reset() {', `        ${body}`, '        println("reset")', '    }', '',
      '    fun add(key: String) = seen.add(key)', '}',
    ]);
    const update = lines(['    fun reset() {', '        synchronized(lock) { seen.clear() }', '        // ...', '    }']);
    mergedEverywhere(file('seen.clear()'), update, file('synchronized(lock) { seen.clear() }'));
  });

  it('lua: a member use or a longer name holding the original line is no wrap (control)', () => {
    expect(wrapsWholeLine('send(items)', 'send(items).done = true')).toBe(false);
    expect(wrapsWholeLine('items', 'items_sent = 0')).toBe(false);
    expect(wrapsWholeLine('queue.items', 'local n = #queue.items')).toBe(true);
    expect(wrapsWholeLine('send(items)', 'log(send(items))')).toBe(true);
  });
});
