// Locations inside the package, valid both from src/ (vitest) and dist/src/ (built).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package root not found');
    dir = up;
  }
  return dir;
}

export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A compiled file under dist/ (piscina workers, child processes need JS, not TS). */
export function distFile(relativeToSrcRoot: string): string {
  return join(PACKAGE_ROOT, 'dist', relativeToSrcRoot);
}

export const ADDON_PATH = join(PACKAGE_ROOT, 'build', 'native', 'infer.node');
