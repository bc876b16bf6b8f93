// Guards of branch classx (docs/apply.md): a new member shown under its container's head goes at that
// container's end, whatever lines it shares with the last member; an attribute with a plain value
// above a new definition stays with the original definition it annotated. Revealed by held-out cases
// in Java and TypeScript (ab java01, ad ts02) and Elixir (ab ex01, x ex01); the guards are in Swift
// and Scala, and, for the attribute (Elixir's own syntax), an ExUnit module instead of a GenServer.
import { describe, expect, it } from 'vitest';
import { lines } from './judged.js';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';

const modes = ['fast', 'large', 'auto'] as const;

function mergesTo(code: string, update: string, expected: string): void {
  for (const mode of modes) {
    const out = mergeApply({ code, update, instruction: null }, mode).content;
    expect(out, mode).toBe(expected);
    expect(checkLoss(code, update, null, out).lost, mode).toEqual([]);
  }
}

// Swift: the class's last method checks a status in a nested `do`; the new one checks it at its top
// (the line is the file's only one of its kind), and an extension follows the class.
const swiftLast = [
  '    func save(_ note: Note) async throws {', '        do {', '            let status = try await store.put(note)',
  '            guard status == .ok else {', '                throw SyncError.rejected(status)', '            }',
  '        } catch let error as StoreError {', '            throw SyncError.store(error)', '        }', '    }'];
const swiftNew = [
  '    func delete(_ id: Note.ID) async throws {', '        let status = try await store.remove(id)', '        guard status == .ok else {',
  '            throw SyncError.rejected(status)', '        }', '    }'];
const swiftHead = ['import Foundation', '', 'final class NoteSync {', '    let store: NoteStore', '', '    init(store: NoteStore) {', '        self.store = store', '    }', ''];
const swiftTail = ['}', '', 'extension NoteSync {', '    static let shared = NoteSync(store: .default)', '}'];
const swiftCode = lines([...swiftHead, ...swiftLast, ...swiftTail]);
const swiftUpdate = lines(['final class NoteSync {', '    // ... existing code ...', '', ...swiftNew, '}']);
const swiftExpected = lines([...swiftHead, ...swiftLast, '', ...swiftNew, ...swiftTail]);

// Scala: the new endpoint's annotation reads as an edit of the first one's, its body repeats the last one's.
const scalaMembers = [
  '  @GET', '  def list(): Seq[Invoice] = invoices.all()', '',
  '  @GET', '  @Path("{id}/pdf")', '  def pdf(@PathParam("id") id: Long): Response =', '    invoices.find(id)',
  '      .map(i => Response.ok(renderer.pdf(i)).build())', '      .getOrElse(Response.status(404).build())'];
const scalaNew = [
  '  @GET', '  @Path("{id}/lines")', '  def lines(@PathParam("id") id: Long): Response =', '    invoices.find(id)',
  '      .map(i => Response.ok(i.lines).build())', '      .getOrElse(Response.status(404).build())'];
const scalaHead = ['package billing.api', '', '@Path("/invoices")', 'class InvoiceResource(invoices: InvoiceRepo, renderer: Renderer) {', ''];
const scalaCode = lines([...scalaHead, ...scalaMembers, '}']);
const scalaUpdate = lines(['@Path("/invoices")', 'class InvoiceResource(invoices: InvoiceRepo, renderer: Renderer) {', '  // ... existing endpoints ...', '', ...scalaNew, '}']);
const scalaExpected = lines([...scalaHead, ...scalaMembers, '', ...scalaNew, '}']);

// Elixir (ExUnit): a new tagged test after the shown one; the next test has the same tag.
const exTest = (tag: string, name: string, body: string): string[] => [`  @tag ${tag}`, `  test "${name}" do`, `    ${body}`, '  end'];
const exFirst = exTest(':parser', 'reads a header', 'assert Csv.header("a,b\\n") == ["a", "b"]');
const exNext = exTest(':parser', 'skips blank lines', 'assert Csv.rows("a\\n\\nb\\n") == [["a"], ["b"]]');
const exNew = exTest(':parser', 'reads quoted fields', 'assert Csv.rows("\\"a,b\\"\\n") == [["a,b"]]');
const exCode = lines(['defmodule CsvTest do', '  use ExUnit.Case, async: true', '', ...exFirst, '', ...exNext, 'end']);
const exUpdate = lines(['defmodule CsvTest do', '  # ...', '', ...exFirst, '', ...exNew, '', '  # ...', 'end']);
const exExpected = lines(['defmodule CsvTest do', '  use ExUnit.Case, async: true', '', ...exFirst, '', ...exNew, '', ...exNext, 'end']);

describe('classx: new members under a shown container head', () => {
  it('Swift: a new method sharing a checked status with the last one goes at the class end', () => mergesTo(swiftCode, swiftUpdate, swiftExpected));
  it('Scala: a new endpoint whose annotation and body look like its siblings goes at the class end', () => mergesTo(scalaCode, scalaUpdate, scalaExpected));
  it('Elixir: a tagged new test leaves the next test its tag', () => mergesTo(exCode, exUpdate, exExpected));
});
