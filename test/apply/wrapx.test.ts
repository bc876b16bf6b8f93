// Branch wrapx: existing lines wrapped in a new block. The block's closers are new (a JSX fragment's
// `</>`, a `}` after `catch {` on its own line), a Lisp line keeps its code when its closers change, the
// original's next statement wrapped as the new block's first line is that statement, and a doc comment
// above a definition whose edit is a marker-led run of new lines stays. Other languages and texts than
// the cases and probes that showed the class.
import { describe, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';

describe('wrapx: existing lines wrapped in a new block', () => {
  it('tsx: two items wrapped in `{expanded && (` / `<>`, the fragment closes before the list does', () => {
    const head = ['export function Card({ item, expanded }: Props) {', '  return (', '    <section className="card">', '      <ul>', '        <li>{item.title}</li>'];
    const tail = ['      </ul>', '      <footer>{item.updatedAt}</footer>', '    </section>', '  );', '}'];
    const original = lines([...head, '        <li>{item.owner}</li>', '        <li>{item.tags.join(", ")}</li>', ...tail]);
    const wrapped = ['        {expanded && (', '          <>', '            <li>{item.owner}</li>', '            <li>{item.tags.join(", ")}</li>', '          </>', '        )}'];
    const update = lines(['      <ul>', '        <li>{item.title}</li>', ...wrapped, '      </ul>']);
    mergedEverywhere(original, update, lines([...head, ...wrapped, ...tail]));
  });

  it('c#: a statement wrapped in `try` / `catch` with Allman braces, a braced loop after the marker', () => {
    const head = ['static int Run(string path)', '{', '    Console.WriteLine("loading");'];
    const tail = ['', '    foreach (var line in text.Split(\'\\n\'))', '    {', '        Handle(line);', '    }', '    return 0;', '}'];
    const original = lines([...head, '    var text = File.ReadAllText(path);', ...tail]);
    const wrapped = ['    string text;', '    try', '    {', '        text = File.ReadAllText(path);', '    }', '    catch (IOException e)', '    {', '        Console.Error.WriteLine(e.Message);', '        return 1;', '    }'];
    const update = lines(['    Console.WriteLine("loading");', ...wrapped, '', '    // ... existing code ...']);
    mergedEverywhere(original, update, lines([...head, ...wrapped, ...tail]));
  });

  it('clojure: a form inside `let` wrapped in `when`, its closers moved to the new last line', () => {
    const head = ['(ns app.report)', '', '(defn publish!', '  [store report]', '  (let [path (render report)]'];
    const tail = ['', '(defn render', '  [report]', '  (str "/tmp/" (:id report) ".pdf"))'];
    const original = lines([...head, '    (upload! store path)))', ...tail]);
    const wrapped = ['    (when (exists? path)', '      (upload! store path))))'];
    const update = lines(['(defn publish!', '  [store report]', '  (let [path (render report)]', ...wrapped]);
    mergedEverywhere(original, update, lines([...head, ...wrapped, ...tail]));
  });

  it('ruby: the next statement wrapped as a retry loop\'s `break if` condition, a marker after', () => {
    const head = ['def sync(file)', '  puts "syncing #{file}"'];
    const tail = ['', '  puts "synced"', 'end'];
    const original = lines([...head, '  upload(file)', ...tail]);
    const wrapped = ['  3.times do |attempt|', '    break if upload(file)', '    sleep(2**attempt)', '  end'];
    const update = lines(['  puts "syncing #{file}"', ...wrapped, '', '  # ... existing code ...']);
    mergedEverywhere(original, update, lines([...head, ...wrapped, ...tail]));
  });

  it('tsx with tabs: a two-space snippet adds an item before a marker, its closers after it come back at the file\'s depth', () => {
    const head = ['export function Menu({ open, entries }: Props) {', '\treturn (', '\t\t<div className="menu">', '\t\t\t{open && (', '\t\t\t\t<ul className="menu__list">'];
    const body = ['\t\t\t\t\t{entries.map((e) => (', '\t\t\t\t\t\t<li key={e.id}>{e.label}</li>', '\t\t\t\t\t))}'];
    const tail = ['\t\t\t\t</ul>', '\t\t\t)}', '\t\t</div>', '\t);', '}'];
    const original = lines([...head, ...body, ...tail]);
    const update = lines([
      '  {open && (',
      '    <ul className="menu__list">',
      '      {entries.length === 0 && <li className="menu__empty">Nothing here</li>}',
      '      {entries.map((e) => (',
      '        // ... existing code ...',
      '      ))}',
      '    </ul>',
      '  )}',
    ]);
    const added = '\t\t\t\t\t{entries.length === 0 && <li className="menu__empty">Nothing here</li>}';
    mergedEverywhere(original, update, lines([...head, added, ...body, ...tail]));
  });

  it('javascript: a new block that passes the next statement as an argument leaves it (control)', () => {
    const head = ['function main(env, args) {', '  const opts = parse(args);'];
    const tail = ['  const steps = plan(env, opts);', '  return apply(steps);', '}'];
    const original = lines([...head, '  validate(env);', ...tail]);
    const added = ['  if (opts.check) {', '    return report(validate(env));', '  }'];
    const update = lines(['  const opts = parse(args);', ...added, '  // ... existing code ...']);
    mergedEverywhere(original, update, lines([...head, ...added, '  validate(env);', ...tail]));
  });

  it('typescript: the doc comment above a function whose edit is all new lines after a marker stays', () => {
    const original = lines([
      '/** Exporter options. */',
      'export interface Options {',
      '  dir: string;',
      '}',
      '',
      '/** Options with defaults filled in. */',
      'export function defaults(): Options {',
      '  return {',
      '    dir: "out",',
      '  };',
      '}',
      '',
      '/** Throws when the options cannot work. */',
      'export function check(o: Options): void {',
      '  if (!o.dir) {',
      '    throw new Error("dir is required");',
      '  }',
      '}',
    ]);
    const update = lines([
      'export interface Options {',
      '  dir: string;',
      '  format: "csv" | "json";',
      '}',
      '',
      'export function defaults(): Options {',
      '  return {',
      '    // ...',
      '    format: "csv",',
      '  };',
      '}',
      '',
      'export function check(o: Options): void {',
      '  // ...',
      '  if (o.format !== "csv" && o.format !== "json") {',
      '    throw new Error("unknown format");',
      '  }',
      '}',
    ]);
    const expected = lines([
      '/** Exporter options. */',
      'export interface Options {',
      '  dir: string;',
      '  format: "csv" | "json";',
      '}',
      '',
      '/** Options with defaults filled in. */',
      'export function defaults(): Options {',
      '  return {',
      '    dir: "out",',
      '    format: "csv",',
      '  };',
      '}',
      '',
      '/** Throws when the options cannot work. */',
      'export function check(o: Options): void {',
      '  if (!o.dir) {',
      '    throw new Error("dir is required");',
      '  }',
      '  if (o.format !== "csv" && o.format !== "json") {',
      '    throw new Error("unknown format");',
      '  }',
      '}',
    ]);
    mergedEverywhere(original, update, expected);
  });
});
