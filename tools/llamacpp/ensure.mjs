#!/usr/bin/env node
// Installs node-llama-cpp (pinned in package.json / package-lock.json) into this folder when it is
// missing, with install scripts off and without the optional GPU binary packages: only
// @node-llama-cpp/linux-x64 (prebuilt CPU llama.cpp) is needed. Safe to call concurrently (a lock
// directory serialises installers). Prints the node_modules path; `--print-stats` adds size/time.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const PIN = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8')).dependencies['node-llama-cpp'];
const LOCK_DIR = join(HERE, '.install-lock');
const LOCK_STALE_MS = 10 * 60_000;

function installedVersion() {
  try {
    const pkg = JSON.parse(readFileSync(join(HERE, 'node_modules/node-llama-cpp/package.json'), 'utf8'));
    if (!existsSync(join(HERE, 'node_modules/@node-llama-cpp/linux-x64/package.json'))) return null;
    return pkg.version;
  } catch {
    return null;
  }
}

function dirSize(p) {
  let n = 0;
  for (const e of readdirSync(p, { withFileTypes: true })) {
    const q = join(p, e.name);
    if (e.isDirectory()) n += dirSize(q);
    else if (e.isFile()) n += statSync(q).size;
  }
  return n;
}

async function withLock(fn) {
  const t0 = Date.now();
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      try {
        if (Date.now() - statSync(LOCK_DIR).mtimeMs > LOCK_STALE_MS) rmSync(LOCK_DIR, { recursive: true, force: true });
      } catch { /* raced with its owner */ }
      if (Date.now() - t0 > LOCK_STALE_MS) throw new Error('timed out waiting for another node-llama-cpp install');
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

export async function ensureLlamaCpp() {
  if (installedVersion() === PIN) return { dir: join(HERE, 'node_modules'), installedNow: false, ms: 0 };
  return withLock(async () => {
    if (installedVersion() === PIN) return { dir: join(HERE, 'node_modules'), installedNow: false, ms: 0 };
    const t0 = Date.now();
    // `npm ci` rejects a lock made with --omit=optional (the other platforms' packages are absent),
    // so install against the committed lock instead.
    const args = ['install', '--ignore-scripts', '--omit=optional', '--no-audit', '--no-fund', '--loglevel=error'];
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, args, { cwd: HERE, stdio: ['ignore', 'inherit', 'inherit'], timeout: 10 * 60_000 });
    if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed in ${HERE} (status ${r.status}${r.error ? `, ${r.error.message}` : ''})`);
    if (installedVersion() !== PIN) throw new Error(`node-llama-cpp ${PIN} is still missing after npm ${args[0]}`);
    return { dir: join(HERE, 'node_modules'), installedNow: true, ms: Date.now() - t0 };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await ensureLlamaCpp();
  if (process.argv.includes('--print-stats')) {
    const mb = dirSize(r.dir) / 2 ** 20;
    console.log(JSON.stringify({ ...r, version: PIN, sizeMiB: Math.round(mb * 10) / 10 }));
  } else console.log(r.dir);
}
