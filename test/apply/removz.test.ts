// Deletion by adjacency in a marker-less update (docs/apply.md, branch removz). Revealed by t css01
// (two CSS rules) and al swift03 (a Swift method): the update, with no marker at all, shows one block
// whole and right after it the head of a following sibling; the sibling blocks between are deleted.
// The guards are in other languages (Lua, Java); the control (JavaScript) is the pieces reading that
// stays: the imports, then a function further down, leave the code between them in place.
// Also (revealed by an tsx01, `</Select>` above a deleted `<Button>`): a segment whose top line is a
// closer the file has once deletes the lines between it and the lines the update shows next (guard:
// an MSBuild project file).
import { beforeAll, describe, expect, it } from 'vitest';
import { mergedEverywhere } from './judged.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const luaCode = "local M = {}\n\nfunction M.open(path)\n  local f = assert(io.open(path, \"r\"))\n  return f\nend\n\nfunction M.open_or_nil(path)\n  local ok, f = pcall(M.open, path)\n  if ok then\n    return f\n  end\nend\n\nfunction M.read_all(path)\n  local f = M.open(path)\n  local text = f:read(\"a\")\n  f:close()\n  return text\nend\n\nreturn M\n";
const luaUpdate = "function M.open(path)\n  local f = assert(io.open(path, \"r\"))\n  return f\nend\n\nfunction M.read_all(path)\n  local f = M.open(path)\n";
const luaExpected = "local M = {}\n\nfunction M.open(path)\n  local f = assert(io.open(path, \"r\"))\n  return f\nend\n\nfunction M.read_all(path)\n  local f = M.open(path)\n  local text = f:read(\"a\")\n  f:close()\n  return text\nend\n\nreturn M\n";

const javaCode = "package com.acme.audit;\n\nimport java.util.ArrayList;\nimport java.util.List;\n\npublic class AuditLog {\n    private final List<String> entries = new ArrayList<>();\n\n    public void record(String entry) {\n        entries.add(entry);\n    }\n\n    public void recordAll(List<String> batch) {\n        for (String entry : batch) {\n            record(entry);\n        }\n    }\n\n    public List<String> entries() {\n        return List.copyOf(entries);\n    }\n}\n";
const javaUpdate = "    public void record(String entry) {\n        entries.add(entry.strip());\n    }\n\n    public List<String> entries() {\n        return List.copyOf(entries);\n";
const javaExpected = "package com.acme.audit;\n\nimport java.util.ArrayList;\nimport java.util.List;\n\npublic class AuditLog {\n    private final List<String> entries = new ArrayList<>();\n\n    public void record(String entry) {\n        entries.add(entry.strip());\n    }\n\n    public List<String> entries() {\n        return List.copyOf(entries);\n    }\n}\n";

const jsCode = "import fs from \"node:fs\";\nimport path from \"node:path\";\n\nconst ROOT = process.cwd();\n\nexport function resolve(name) {\n  return path.join(ROOT, name);\n}\n\nexport function exists(name) {\n  return fs.existsSync(resolve(name));\n}\n\nexport function remove(name) {\n  fs.rmSync(resolve(name), { force: true });\n}\n";
const jsUpdate = "import fs from \"node:fs\";\nimport path from \"node:path\";\nimport os from \"node:os\";\n\nexport function exists(name) {\n  return fs.existsSync(resolve(name));\n}\n";
const jsExpected = "import fs from \"node:fs\";\nimport path from \"node:path\";\nimport os from \"node:os\";\n\nconst ROOT = process.cwd();\n\nexport function resolve(name) {\n  return path.join(ROOT, name);\n}\n\nexport function exists(name) {\n  return fs.existsSync(resolve(name));\n}\n\nexport function remove(name) {\n  fs.rmSync(resolve(name), { force: true });\n}\n";
const jsWithoutResolve = "import fs from \"node:fs\";\nimport path from \"node:path\";\nimport os from \"node:os\";\n\nconst ROOT = process.cwd();\n\nexport function exists(name) {\n  return fs.existsSync(resolve(name));\n}\n\nexport function remove(name) {\n  fs.rmSync(resolve(name), { force: true });\n}\n";

const projCode = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n    <Nullable>enable</Nullable>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include=\"Serilog\" Version=\"3.1.1\" />\n  </ItemGroup>\n  <Import Project=\"legacy.targets\" />\n  <Import Project=\"legacy.signing.targets\" />\n  <Target Name=\"Stamp\" BeforeTargets=\"Build\">\n    <Exec Command=\"git rev-parse HEAD &gt; version.txt\" />\n  </Target>\n</Project>\n";
const projUpdate = "<!-- ... -->\n  </ItemGroup>\n  <Target Name=\"Stamp\" BeforeTargets=\"Build\">\n<!-- ... -->\n";
const projExpected = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n    <Nullable>enable</Nullable>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include=\"Serilog\" Version=\"3.1.1\" />\n  </ItemGroup>\n  <Target Name=\"Stamp\" BeforeTargets=\"Build\">\n    <Exec Command=\"git rev-parse HEAD &gt; version.txt\" />\n  </Target>\n</Project>\n";

describe('deletion by adjacency without markers', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('of a function between a sibling shown whole and the next sibling head (end blocks)', () => {
    mergedEverywhere(luaCode, luaUpdate, luaExpected);
  });

  it('of a method between an edited sibling shown whole and the next method', () => {
    mergedEverywhere(javaCode, javaUpdate, javaExpected);
  });

  it('not of a function between the imports and a function further down (pieces)', () => {
    mergedEverywhere(jsCode, jsUpdate, jsExpected);
    expect(checkLoss(jsCode, jsUpdate, null, jsWithoutResolve).lost.length).toBeGreaterThan(0);
  });

  it('of the lines below a closer the file has once, shown as the top line after a marker', () => {
    mergedEverywhere(projCode, projUpdate, projExpected);
  });
});
