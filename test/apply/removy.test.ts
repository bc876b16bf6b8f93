// Deletions by adjacency (docs/apply.md, branch removy). Revealed by k lua03 and m c05 (a function
// deleted after the previous one's shown tail and closer; in C its Allman `{` hidden by the marker)
// and aj go02 (the first import of Go's list deleted); the guards are in other languages: a Swift
// method deleted after its sibling's last line and closer, a C++ Allman function after a head whose
// `{` the marker hides, and the first path of a Starlark `exports_files(` list.
import { beforeAll, describe, expect, it } from 'vitest';
import { mergedEverywhere } from './judged.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const swiftCode = "import Foundation\n\nstruct PriceFormatter {\n    let locale: Locale\n\n    func short(_ cents: Int) -> String {\n        let value = Double(cents) / 100\n        return String(format: \"%.2f\", value)\n    }\n\n    func long(_ cents: Int) -> String {\n        let value = Double(cents) / 100\n        return String(format: \"%.2f\", value)\n    }\n\n    func withCurrency(_ cents: Int, code: String) -> String {\n        let value = Double(cents) / 100\n        return \"\\(code) \\(String(format: \"%.2f\", value))\"\n    }\n}\n";
const swiftUpdate = "struct PriceFormatter {\n    // ...\n    func short(_ cents: Int) -> String {\n        // ...\n        return String(format: \"%.2f\", value)\n    }\n\n    func withCurrency(_ cents: Int, code: String) -> String {\n        // ...\n    }\n}\n";
const swiftExpected = "import Foundation\n\nstruct PriceFormatter {\n    let locale: Locale\n\n    func short(_ cents: Int) -> String {\n        let value = Double(cents) / 100\n        return String(format: \"%.2f\", value)\n    }\n\n    func withCurrency(_ cents: Int, code: String) -> String {\n        let value = Double(cents) / 100\n        return \"\\(code) \\(String(format: \"%.2f\", value))\"\n    }\n}\n";

const cppCode = "#include \"queue.h\"\n\nint Queue::push(int value)\n{\n    if (full()) {\n        return -1;\n    }\n    items_[tail_++] = value;\n    return 0;\n}\n\nint Queue::pushFront(int value)\n{\n    if (full()) {\n        return -1;\n    }\n    items_[--head_] = value;\n    return 0;\n}\n\nint Queue::pop()\n{\n    return items_[head_++];\n}\n";
const cppUpdate = "int Queue::push(int value)\n    // ... existing code ...\n}\n\nint Queue::pop()\n// ... existing code ...\n";
const cppExpected = "#include \"queue.h\"\n\nint Queue::push(int value)\n{\n    if (full()) {\n        return -1;\n    }\n    items_[tail_++] = value;\n    return 0;\n}\n\nint Queue::pop()\n{\n    return items_[head_++];\n}\n";

const bzlCode = "package(default_visibility = [\"//visibility:public\"])\n\nexports_files(\n    \"old_schema.graphql\",\n    \"schema.graphql\",\n    \"codegen.yaml\",\n)\n\nfilegroup(\n    name = \"docs\",\n    srcs = glob([\"docs/**\"]),\n)\n";
const bzlUpdate = "exports_files(\n    \"schema.graphql\",\n    \"codegen.yaml\",\n)\n# ... existing code ...\n";
const bzlExpected = "package(default_visibility = [\"//visibility:public\"])\n\nexports_files(\n    \"schema.graphql\",\n    \"codegen.yaml\",\n)\n\nfilegroup(\n    name = \"docs\",\n    srcs = glob([\"docs/**\"]),\n)\n";

describe('deletion by adjacency', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('after a sibling shown by its head, its last line and its closer', () => {
    mergedEverywhere(swiftCode, swiftUpdate, swiftExpected);
  });

  it('after an Allman head whose brace the body marker hides', () => {
    mergedEverywhere(cppCode, cppUpdate, cppExpected);
  });

  it('of the first item of a list of literals', () => {
    mergedEverywhere(bzlCode, bzlUpdate, bzlExpected);
  });
});
