// Branch usesx3: a parameter, field or initializer threaded through several places. (1) A line cut
// before the opener that ended it, its list going on (`tokens_(burst) {` → `tokens_(burst),` then
// `rejected_(0) {`), is that line's edit, not a new head beside it (edge-line-edit.ts continuedOnNext,
// read in merge-finish.ts edgeMatch's definition check). (2) One line between a paired line and an
// equal line, same first token and no new sibling, is the edit of the line it stands for, however
// much it was rewritten (merge-finish.ts replacedBetween). The Swift, Kotlin, Haskell and committed
// cases fail on main fbba1ace (the old line kept beside its new form); the Go control (a new check
// copied from its sibling, above an equal `return nil, err`) keeps the sibling.
import { describe, it } from 'vitest';
import { mergedCase } from './bench-case.js';
import { lines, mergedEverywhere } from './judged.js';

describe('usesx3: a parameter or field threaded through several places', () => {
  it('swift: an init parameter appended after the last one at a marker, the guard body left out', () => {
    mergedEverywhere(
      lines(["final class Uploader {", "    private let session: URLSession", "    private let bucket: String", "", "    init(session: URLSession,", "         bucket: String) {", "        guard !bucket.isEmpty else {", "            fatalError(\"bucket must not be empty\")", "        }", "        self.session = session", "        self.bucket = bucket", "    }", "", "    func upload(_ data: Data, key: String) async throws {", "        let url = URL(string: \"https://\\(bucket).s3.amazonaws.com/\\(key)\")!", "        var request = URLRequest(url: url)", "        request.httpMethod = \"PUT\"", "        _ = try await session.upload(for: request, from: data)", "    }", "}"]),
      lines(["final class Uploader {", "    private let session: URLSession", "    private let bucket: String", "    private let region: String", "", "    init(session: URLSession,", "         bucket: String,", "         region: String) {", "        // ...", "        self.bucket = bucket", "        self.region = region", "    }", "", "    func upload(_ data: Data, key: String) async throws {", "        let url = URL(string: \"https://\\(bucket).s3.\\(region).amazonaws.com/\\(key)\")!", "        // ...", "    }", "}"]),
      lines(["final class Uploader {", "    private let session: URLSession", "    private let bucket: String", "    private let region: String", "", "    init(session: URLSession,", "         bucket: String,", "         region: String) {", "        guard !bucket.isEmpty else {", "            fatalError(\"bucket must not be empty\")", "        }", "        self.session = session", "        self.bucket = bucket", "        self.region = region", "    }", "", "    func upload(_ data: Data, key: String) async throws {", "        let url = URL(string: \"https://\\(bucket).s3.\\(region).amazonaws.com/\\(key)\")!", "        var request = URLRequest(url: url)", "        request.httpMethod = \"PUT\"", "        _ = try await session.upload(for: request, from: data)", "    }", "}"]),
      'add a region to the uploader',
    );
  });

  it('kotlin: a constructor property appended before a marker, an init block first in the body', () => {
    mergedCase('probes-usesx3/kt01-constructor-property-appended-before-marker');
  });

  it('c++ (bk cpp06): a member initializer appended, the constructor body left out', () => {
    mergedCase('external-2026-11-28bk/cpp06-new-member-and-uses-far-apart-long');
  });

  it('haskell: a comma-first list item rewritten beyond an edit before the list closer and a new helper', () => {
    mergedCase('probes-usesx3/hs01-comma-first-item-rewritten-param-threaded');
  });

  it('haskell (bi hs01): a precision parameter through the callers, a cell rewritten', () => {
    mergedCase('external-2026-11-27bi/hs01-precision-param-through-callers');
  });

  it('go: a new check copied from its sibling above an equal `return nil, err` keeps the sibling (control)', () => {
    mergedCase('probes-usesx3/go01-control-new-sibling-check-before-equal-return');
  });

  it('python: a new attribute after a shown line, then a blank and a marker, keeps the next line (control)', () => {
    mergedCase('probes-usesx3/py02-control-new-attribute-before-blank-keeps-neighbour');
  });
});
