// node tools/confidences.mjs <checkout> <mode> <set dirs...>: one line per case, "set case exact|miss confidence",
// for counting how a change moves the confidence of cases the merge gets exact (fastrun prints it on misses only).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, basename } from 'node:path';
const [root, mode, ...sets] = process.argv.slice(2);
const { runApplyTask } = await import(join(root, 'dist/src/apply/run.js'));
const { prepareSyntax } = await import(join(root, 'dist/src/apply/syntax/prepare.js'));
for (const dir of sets) {
  for (const id of readdirSync(dir).sort()) {
    if (!existsSync(join(dir, id, 'meta.json'))) continue;
    const read = (f) => readFileSync(join(dir, id, f), 'utf8');
    const meta = JSON.parse(read('meta.json'));
    const content = `${meta.instruction ? `<instruction>${meta.instruction}</instruction>\n` : ''}<code>${read('original')}</code>\n<update>${read('update')}</update>`;
    await prepareSyntax(content);
    const r = runApplyTask({ content, mode, maxTokens: null });
    const exact = r.ok && r.content === read('expected');
    console.log(`${basename(dir)} ${id} ${exact ? 'exact' : 'miss'} ${r.ok ? r.confidence : 'error'}`);
  }
}
