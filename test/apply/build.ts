// The apply worker runs from dist/ (piscina needs JS): build before the tests that use the pool.
// The project build compiles the addon first; when someone else's native change breaks that step,
// compile the TypeScript alone so these tests still run what is in src/.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT, distFile } from '../../src/paths.js';

function newestSource(): number {
  let newest = 0;
  for (const dir of ['src/apply', 'src/api', 'src/tokenizer']) {
    for (const f of readdirSync(join(PACKAGE_ROOT, dir))) {
      if (f.endsWith('.ts')) newest = Math.max(newest, statSync(join(PACKAGE_ROOT, dir, f)).mtimeMs);
    }
  }
  return newest;
}

function fresh(): boolean {
  const worker = distFile('src/apply/worker.js');
  const api = distFile('src/api/apply-completions.js');
  if (!existsSync(worker) || !existsSync(api)) return false;
  return Math.min(statSync(worker).mtimeMs, statSync(api).mtimeMs) >= newestSource();
}

export function ensureBuilt(): void {
  try {
    execFileSync('flock', ['/tmp/build.lock', process.execPath, 'scripts/build.mjs'], { cwd: PACKAGE_ROOT, stdio: 'pipe' });
  } catch {
    // fall through to the TypeScript-only build below
  }
  if (fresh()) return;
  try {
    execFileSync('flock', ['/tmp/build.lock', process.execPath, 'node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { cwd: PACKAGE_ROOT, stdio: 'pipe' });
  } catch {
    // tsc exits non-zero on type errors in files outside apply, yet still emits
  }
  if (!fresh()) throw new Error('dist/src/apply is older than src/apply after building');
}
