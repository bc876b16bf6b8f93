// Flat section headers (`[*.md]`, `[[redirects]]`) head the lines below them up to the next header
// (flat-sections.ts), and the heads the update shows a line under leave only that block's siblings
// to judge an edit by (shown-parent-edit.ts). Revealed by INI (supervisord), TOML (pyproject) and
// MSBuild cases of sets r, ag, aj and ah; the guards are an .editorconfig, a netlify.toml of
// identical `[[redirects]]` headers, and a Directory.Packages.props.
import { describe, it } from 'vitest';
import { mergedEverywhere } from './judged.js';

const cases: Array<{ name: string; code: string; update: string; expected: string }> = [
  {
    // The new value is the text other sections hold (`enabled = true`): under the header the update shows it
    // is that section's own key edited, not a copy of another section's line (28cb ini11).
    name: 'a key set to a value other sections hold is the shown section\'s edit',
    code: '[cache:npm]\nenabled = true\npath = /c/npm\n\n[cache:nuget]\nenabled = true\npath = /c/nuget\n\n[cache:docker]\nenabled = false\npath = /c/docker\nttl_days = 7\n\n[notify]\nemail = a@b.c\n',
    update: '[cache:docker]\nenabled = true\n; ...\n',
    expected: '[cache:npm]\nenabled = true\npath = /c/npm\n\n[cache:nuget]\nenabled = true\npath = /c/nuget\n\n[cache:docker]\nenabled = true\npath = /c/docker\nttl_days = 7\n\n[notify]\nemail = a@b.c\n',
  },
  {
    // The edited line after the marker reads most like the `[*.rst]` section's; the update shows it under `[*.md]`.
    name: 'a key edited after a marker stays in the section the update shows above it',
    code: 'root = true\n\n[*]\ncharset = utf-8\ninsert_final_newline = true\n\n[*.py]\nindent_style = space\nindent_size = 4\nmax_line_length = 88\n\n[*.md]\nindent_style = space\nindent_size = 2\ntrim_trailing_whitespace = false\nmax_line_length = off\n\n[*.rst]\nindent_style = space\nindent_size = 3\nmax_line_length = 100\n',
    update: '[*.md]\nindent_style = space\n# ...\nmax_line_length = 120\n',
    expected: 'root = true\n\n[*]\ncharset = utf-8\ninsert_final_newline = true\n\n[*.py]\nindent_style = space\nindent_size = 4\nmax_line_length = 88\n\n[*.md]\nindent_style = space\nindent_size = 2\ntrim_trailing_whitespace = false\nmax_line_length = 120\n\n[*.rst]\nindent_style = space\nindent_size = 3\nmax_line_length = 100\n',
  },
  {
    // Identical headers: a new key in the second table is not an anchor on the third table's equal key.
    name: 'a new key under one of several identical table headers does not reach the next table',
    code: '[build]\npublish = "dist"\n\n[[redirects]]\nfrom = "/docs/*"\nto = "/documentation/:splat"\nstatus = 301\n\n[[redirects]]\nfrom = "/api/*"\nto = "/.netlify/functions/:splat"\nstatus = 200\n\n[[redirects]]\nfrom = "/*"\nto = "/index.html"\nstatus = 200\nforce = false\n',
    update: '[[redirects]]\nfrom = "/api/*"\nto = "/.netlify/functions/:splat"\nstatus = 200\nforce = false\n\n# ... rest unchanged\n',
    expected: '[build]\npublish = "dist"\n\n[[redirects]]\nfrom = "/docs/*"\nto = "/documentation/:splat"\nstatus = 301\n\n[[redirects]]\nfrom = "/api/*"\nto = "/.netlify/functions/:splat"\nstatus = 200\nforce = false\n\n[[redirects]]\nfrom = "/*"\nto = "/index.html"\nstatus = 200\nforce = false\n',
  },
  {
    // The same package under two conditions: the group the update shows decides which line is edited.
    name: 'an item edited under the shown one of several parallel groups replaces that group\'s item',
    code: '<Project>\n  <ItemGroup Condition="\'$(Configuration)\' == \'Debug\'">\n    <PackageVersion Include="Serilog.Sinks.Console" Version="4.1.0" />\n    <PackageVersion Include="Serilog.Sinks.Seq" Version="6.0.0" />\n  </ItemGroup>\n  <ItemGroup Condition="\'$(Configuration)\' == \'Release\'">\n    <PackageVersion Include="Serilog.Sinks.Console" Version="5.0.0" />\n    <PackageVersion Include="Serilog.Sinks.Seq" Version="7.0.0" />\n  </ItemGroup>\n</Project>\n',
    update: '  <ItemGroup Condition="\'$(Configuration)\' == \'Release\'">\n    <PackageVersion Include="Serilog.Sinks.Console" Version="5.0.0" />\n    <PackageVersion Include="Serilog.Sinks.Seq" Version="7.0.1" />\n    <PackageVersion Include="Serilog.Sinks.File" Version="5.0.0" />\n  </ItemGroup>\n',
    expected: '<Project>\n  <ItemGroup Condition="\'$(Configuration)\' == \'Debug\'">\n    <PackageVersion Include="Serilog.Sinks.Console" Version="4.1.0" />\n    <PackageVersion Include="Serilog.Sinks.Seq" Version="6.0.0" />\n  </ItemGroup>\n  <ItemGroup Condition="\'$(Configuration)\' == \'Release\'">\n    <PackageVersion Include="Serilog.Sinks.Console" Version="5.0.0" />\n    <PackageVersion Include="Serilog.Sinks.Seq" Version="7.0.1" />\n    <PackageVersion Include="Serilog.Sinks.File" Version="5.0.0" />\n  </ItemGroup>\n</Project>\n',
  },
];

describe('the same keys under several flat sections or parallel groups', () => {
  for (const c of cases) {
    it(c.name, () => mergedEverywhere(c.code, c.update, c.expected));
  }
});
