#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/ after `npm run build` (npm start/test/bench build first).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../dist/src/cli.js', import.meta.url));
if (!existsSync(entry)) {
  console.error('svc: not built yet; run `npm run build` first');
  process.exit(1);
}
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));
