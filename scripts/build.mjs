#!/usr/bin/env node
// The one build command: installs dependencies when missing, compiles TypeScript and the
// native addon, each only when its inputs are newer than its output (or with --force).
// It uses no dependency's install script: npm 11 may skip those, so the addon is built here.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = new Set(process.argv.slice(2));
const force = args.has('--force');
const nativeOnly = args.has('--native-only');

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    console.error(`build: \`${cmd} ${argv.join(' ')}\` failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}

function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) for (const e of readdirSync(p)) visit(join(p, e));
    else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of paths) visit(join(root, p));
  return newest;
}

function mtime(p) {
  const f = join(root, p);
  return existsSync(f) ? statSync(f).mtimeMs : -1;
}

// 1. dependencies
const lockStamp = 'node_modules/.package-lock.json';
if (!existsSync(join(root, 'node_modules')) || mtime('package.json') > mtime(lockStamp) ||
    (existsSync(join(root, 'package-lock.json')) && mtime('package-lock.json') > mtime(lockStamp))) {
  // `npm install` follows package-lock.json and repairs a partial node_modules in place; the lock
  // is complete, so `npm ci` works on a fresh clone too and neither rewrites it.
  console.log('build: installing dependencies (npm install)');
  run('npm', ['install', '--no-audit', '--no-fund']);
}

// 2. native addon (CMake reads native/sources.json, as binding.gyp does)
const addon = 'build/native/infer.node';
if (force || mtime(addon) < newestMtime(['native', 'CMakeLists.txt'])) {
  console.log('build: compiling native addon');
  const jobs = String(Math.max(1, Number(process.env.BUILD_JOBS ?? 2)));
  run('cmake', ['-S', '.', '-B', 'build/native', '-DCMAKE_BUILD_TYPE=Release', '-Wno-dev']);
  run('cmake', ['--build', 'build/native', '-j', jobs]);
}

// 3. TypeScript
const stamp = 'dist/.build-stamp';
if (!nativeOnly && (force || mtime(stamp) < newestMtime(['src', 'bench', 'tsconfig.json']))) {
  console.log('build: compiling TypeScript');
  run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, stamp), new Date().toISOString());
}
