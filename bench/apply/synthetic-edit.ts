// The synthetic apply input both apply benches use: a deterministic TypeScript-like file of N
// lines and a three-hunk update of it.

/** A deterministic TypeScript-like file: classes of methods with the usual repeated lines. */
export function makeFile(lines: number): string {
  const out: string[] = ["import { db } from './db.js';", "import { log } from './log.js';", ''];
  let f = 0;
  while (out.length < lines - 1) {
    out.push(`export async function handler${f}(req: Request, res: Response): Promise<void> {`);
    out.push(`  const id = req.params.id;`);
    out.push(`  const row = await db.table${f % 17}.find({ where: { id, kind: ${f} } });`);
    out.push(`  if (!row) {`);
    out.push(`    res.status(404).json({ error: 'not found' });`);
    out.push(`    return;`);
    out.push(`  }`);
    out.push(`  log.info('handler${f}', { id, size: row.items.length });`);
    out.push(`  res.json({ ok: true, value: row.value * ${f % 7 + 1} });`);
    out.push(`}`);
    out.push('');
    f++;
  }
  return out.slice(0, lines).join('\n') + '\n';
}

/** Three hunks (near the start, the middle, the end) with context, separated by markers. */
export function makeUpdate(file: string): string {
  const lines = file.split('\n');
  const heads = lines.map((l, i) => [l, i] as const).filter(([l]) => l.startsWith('export async function'));
  const pick = [heads[0]!, heads[Math.floor(heads.length / 2)]!, heads[heads.length - 1]!];
  const parts: string[] = ['// ... existing code ...'];
  for (const [head, i] of pick) {
    parts.push(head, lines[i + 1]!, `  const started = Date.now();`, lines[i + 2]!, lines[i + 3]!);
    parts.push('// ... existing code ...');
  }
  return parts.join('\n');
}

/**
 * Three complete functions (start, middle, end) each with one added line, separated by markers:
 * the shape the syntax pass swaps by name, so it parses the whole original.
 */
export function makeDefinitionUpdate(file: string): string {
  const lines = file.split('\n');
  const heads = lines.map((l, i) => [l, i] as const).filter(([l]) => l.startsWith('export async function'));
  const pick = [heads[0]!, heads[Math.floor(heads.length / 2)]!, heads[heads.length - 1]!];
  const parts: string[] = ['// ... existing code ...'];
  for (const [, i] of pick) {
    let end = i;
    while (end < lines.length && lines[end] !== '}') end++;
    parts.push(lines[i]!, `  const started = Date.now();`, ...lines.slice(i + 1, end + 1));
    parts.push('// ... existing code ...');
  }
  return parts.join('\n');
}
