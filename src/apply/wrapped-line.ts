// A statement wrapped whole in a new expression (`main()` → `sys.exit(main())`, `$app->run();` →
// `exit($app->run());`, `main "$@"` → `time main "$@"`): the line is edited, not replaced by new
// code. Short lines so wrapped share too little text for the similarity tests (lines.ts editedVersion).

/** Shortest statement text (trailing `;`/`,` dropped) that may count as wrapped. */
const MIN_WRAPPED = 4;

/** Line `b` holds all of line `a` (both normalised) inside new text around it; `a` carries a name. */
export function wrapsLine(a: string, b: string): boolean {
  const core = a.replace(/[;,]$/, '');
  if (core.length < MIN_WRAPPED || b.length <= a.length || !/[A-Za-z_$][\w$]{2,}/.test(core)) return false;
  return b.includes(core);
}
