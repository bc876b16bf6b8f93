// Existing statements wrapped in a new block that reaches the end of their function (`do {` … `}
// catch {` … `}` around the last statements, then the function's own `}`), as held-out sets wrote
// it in Swift, Zig, C#, Svelte and TSX (docs/apply.md, branch shapep). The update shows one or two
// lines of context, the wrapped lines re-indented, the handler, the new block's closer and the
// function's closer, with markers around or (a snippet) none at all. The new block's closer reads
// like the original's next closer: the merge must pair closers by the blocks they close.
import { editLine, pick, pinned, strongLine, marker, type Change } from './edit-gen.js';
import { ind, leaves, result, type ShapeInput } from './edit-shapes.js';
import { errorWrapper, unitOf } from './model-shapes.js';

/** A statement line: no block opened, continued or closed on it. */
function plainStatement(t: string): boolean {
  return strongLine(t) && !/[{([:,\\]\s*$|=>\s*$/.test(t.trim()) && !/^[})\]]/.test(t.trim()) && !/^(?:else|elif|catch|except|finally|case|default)\b/.test(t.trim());
}

export function wrapToBlockEnd(x: ShapeInput): ReturnType<typeof result> | null {
  // Functions closed by a line of their own (`}`), whose last body lines are plain statements.
  const cands = leaves(x).filter((b) => b.end - b.header >= 4 && /^\s*[}\]]/.test(x.lines[b.end - 1]!) && plainStatement(x.lines[b.end - 2]!));
  const b = pick(x.r, cands);
  if (!b) return null;
  const last = b.end - 2;
  const i = ind(x.lines[last]!);
  const u = unitOf(x.lines, b);
  const w = errorWrapper(x.lang, i, u);
  if (!w || w.close.length === 0) return null;
  // One to three statements at the last one's indentation, ending with it.
  let s = last;
  const want = 1 + Math.floor(x.r() * 3);
  while (last - s + 1 < want && s - 1 > b.header && plainStatement(x.lines[s - 1]!) && ind(x.lines[s - 1]!) === i) s--;
  const c: Change = { start: s, end: last + 1, lines: [...w.open, ...x.lines.slice(s, last + 1).map((l) => u + l), ...w.handler, ...w.close] };
  // Context: one or two lines above, the new lines, the function's closer.
  let from = Math.max(b.header, s - 1 - Math.floor(x.r() * 2));
  // Models show a meaningful line of context, not a lone `}` (edit-gen.ts renderUpdate does the same).
  for (let k = 0; k < 4 && from > b.header && !x.lines.slice(from, s).some(strongLine); k++) from--;
  const shown = [...x.lines.slice(from, s), ...c.lines, x.lines[b.end - 1]!];
  const bare = x.r() < 0.4;
  const update = bare ? shown : [
    ...(from > 0 ? [marker(x.lang, ind(shown[0]!), x.r)] : []),
    ...shown,
    ...(b.end < x.lines.length ? [marker(x.lang, ind(x.lines[b.end - 1]!), x.r)] : []),
  ];
  const e = result(x, [c], update, `Handle errors in ${b.name}.`);
  return { ...e, determined: pinned(x.lines, e.update) };
}

/**
 * A block inside a function wrapped whole in the language's error handling (an `if`/`for` with its
 * own closers, shown one level deeper), as held-out sets wrote it in C#, TSX and Dart (docs/apply.md,
 * branch shapev): the wrapped run's closers and short statements (`}`, `continue;`) read like any
 * other, so only their moved neighbours say which original lines they are. One or two lines of
 * context above, the line after the wrapped block below, markers around.
 */
export function wrapInnerBlock(x: ShapeInput): ReturnType<typeof result> | null {
  const runs: Array<[number, number, number]> = [];
  for (const b of leaves(x)) {
    for (let j = b.header + 1; j < b.end - 1; j++) {
      if (!/\{\s*$/.test(x.lines[j]!) || !strongLine(x.lines[j]!) || /^\s*}/.test(x.lines[j]!)) continue;
      const i = ind(x.lines[j]!);
      let c = j + 1;
      while (c < b.end && !(ind(x.lines[c]!) === i && x.lines[c]!.trim() !== '')) c++;
      // The block's own closer, a lone `}` at its head's indentation, followed by a line still in the function.
      if (c >= b.end - 1 || x.lines[c]!.trim() !== '}' || c - j < 2) continue;
      runs.push([b.header, j, c]);
    }
  }
  const run = pick(x.r, runs);
  if (!run) return null;
  const [header, s, c] = run;
  const i = ind(x.lines[s]!);
  const block = x.blocks.find((b) => b.header === header)!;
  const u = unitOf(x.lines, block);
  const w = errorWrapper(x.lang, i, u);
  if (!w || w.close.length === 0) return null;
  const ch: Change = { start: s, end: c + 1, lines: [...w.open, ...x.lines.slice(s, c + 1).map((l) => (l.trim() === '' ? l : u + l)), ...w.handler, ...w.close] };
  let from = Math.max(header, s - 1 - Math.floor(x.r() * 2));
  for (let k = 0; k < 4 && from > header && !x.lines.slice(from, s).some(strongLine); k++) from--;
  let after = c + 1;
  while (after < block.end && x.lines[after]!.trim() === '') after++;
  const shown = [...x.lines.slice(from, s), ...ch.lines, ...x.lines.slice(c + 1, after + 1)];
  const update = [
    ...(from > 0 ? [marker(x.lang, ind(shown[0]!), x.r)] : []),
    ...shown,
    ...(after + 1 < x.lines.length ? [marker(x.lang, ind(x.lines[after]!), x.r)] : []),
  ];
  const e = result(x, [ch], update, `Handle errors in ${block.name}.`);
  return { ...e, determined: pinned(x.lines, e.update) };
}

/**
 * A declaration whose value may now fail, wrapped so the name outlives the handler: `const x = f();`
 * becomes `let x;` and `try {` `x = f();` `} catch …` (held-out C#: `string id;` `try` `{` `id = await
 * …;`). The update starts at a marker with the new lines, then shows the line after: the original
 * declaration is the one the assignment inside the new block edits.
 */
export function wrapHoistedDeclaration(x: ShapeInput): ReturnType<typeof result> | null {
  if (!['typescript', 'tsx', 'javascript'].includes(x.lang.name)) return null;
  const cands: Array<[number, number]> = [];
  for (const b of leaves(x)) {
    for (let j = b.header + 2; j < b.end - 2; j++) {
      const m = /^(\s*)(?:const|let|var) ([A-Za-z_$][\w$]*) = (.+;)\s*$/.exec(x.lines[j]!);
      if (!m || /[{([]\s*;?$/.test(m[3]!) || !plainStatement(x.lines[j + 1]!) || ind(x.lines[j + 1]!) !== m[1]) continue;
      cands.push([b.header, j]);
    }
  }
  const c0 = pick(x.r, cands);
  if (!c0) return null;
  const [header, j] = c0;
  const block = x.blocks.find((b) => b.header === header)!;
  const m = /^(\s*)(?:const|let|var) ([A-Za-z_$][\w$]*) = (.+;)\s*$/.exec(x.lines[j]!)!;
  const i = m[1]!;
  const u = unitOf(x.lines, block);
  const w = errorWrapper(x.lang, i, u)!;
  const ch: Change = { start: j, end: j + 1, lines: [`${i}let ${m[2]};`, ...w.open, `${i}${u}${m[2]} = ${m[3]}`, ...w.handler, ...w.close] };
  const after = 1 + Math.floor(x.r() * 2);
  const shown = [...ch.lines, ...x.lines.slice(j + 1, Math.min(block.end, j + 1 + after))];
  const update = [marker(x.lang, i, x.r), ...shown, marker(x.lang, i, x.r)];
  const e = result(x, [ch], update, `Handle errors in ${block.name}.`);
  return { ...e, determined: pinned(x.lines, e.update) };
}

/**
 * Two to four statements inside a function wrapped in the language's error handling, one of them
 * edited on the way (a value, a string or a name changed), as held-out sets wrote retry loops and
 * try blocks in Go, Rust and JavaScript (docs/apply.md, branch wrapz): the edited line sits one level
 * deeper among new lines, so only its moved neighbours say which original line it is. One or two
 * lines of context above, the line after the run below, markers around.
 */
export function wrapEditedRun(x: ShapeInput): ReturnType<typeof result> | null {
  // Whole statements: not the lines of one expression continued over several (`a +` / `.then(…)`).
  const continued = (t: string): boolean => /(?:[-+*/%&|?.=<>]|\b(?:and|or))\s*$/.test(t.trim());
  const statement = (t: string): boolean => plainStatement(t) && !continued(t) && !/^[-+*/%&|?.:]/.test(t.trim());
  const runs: Array<[number, number, number]> = [];
  for (const b of leaves(x)) {
    for (let s = b.header + 1; s < b.end - 2; s++) {
      const i = ind(x.lines[s]!);
      let e = s;
      while (e + 1 < b.end - 1 && e - s < 3 && statement(x.lines[e + 1]!) && ind(x.lines[e + 1]!) === i) e++;
      // The run's lines are statements; the line after it is still in the function, at the run's depth or above.
      if (e === s || !x.lines.slice(s, e + 1).every(statement) || continued(x.lines[s - 1]!) || ind(x.lines[e + 1]!).length > i.length || x.lines[e + 1]!.trim() === '') continue;
      runs.push([b.header, s, e]);
    }
  }
  const run = pick(x.r, runs);
  if (!run) return null;
  const [header, s, e] = run;
  const i = ind(x.lines[s]!);
  const block = x.blocks.find((b) => b.header === header)!;
  const u = unitOf(x.lines, block);
  const w = errorWrapper(x.lang, i, u);
  if (!w) return null;
  const at = s + Math.floor(x.r() * (e - s + 1));
  const edited = editLine(x.lines[at]!, x.r);
  if (!edited || x.lines.some((t) => t.trim() === edited.trim())) return null;
  const body = x.lines.slice(s, e + 1).map((l, n) => u + (s + n === at ? edited : l));
  const ch: Change = { start: s, end: e + 1, lines: [...w.open, ...body, ...w.handler, ...w.close] };
  let from = Math.max(header, s - 1 - Math.floor(x.r() * 2));
  for (let k = 0; k < 4 && from > header && !x.lines.slice(from, s).some(strongLine); k++) from--;
  const shown = [...x.lines.slice(from, s), ...ch.lines, x.lines[e + 1]!];
  const update = [
    ...(from > 0 ? [marker(x.lang, ind(shown[0]!), x.r)] : []),
    ...shown,
    ...(e + 2 < x.lines.length ? [marker(x.lang, ind(x.lines[e + 1]!), x.r)] : []),
  ];
  const r = result(x, [ch], update, `Handle errors in ${block.name}.`);
  return { ...r, determined: pinned(x.lines, r.update) };
}
