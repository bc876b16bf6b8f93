// Guard of branch orderz (docs/apply.md): hunks written out of file order, a definition removed
// between two that the update shows. A marker stands for the rows between the segments next to each
// other in FILE order, not in the update's order: the marker after the imports does not keep the
// removed definition that lies between two later hunks. Revealed by a Kotlin case (set al); the
// guard is JavaScript.
import { describe, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';

const readConfig = [
  'export function readConfig(dir) {', "  const file = path.join(dir, 'config.json');", '  if (cache.has(file)) return cache.get(file);',
  "  const value = JSON.parse(fs.readFileSync(file, 'utf8'));", '  cache.set(file, value);', '  return value;', '}', ''];
const forget = ['export function forget(dir) {', "  cache.delete(path.join(dir, 'config.json'));", '}', ''];
const configKeys = ['export function configKeys(dir) {', '  return Object.keys(readConfig(dir));', '}', ''];
const writeConfig = (body: string[]): string[] => [
  'export function writeConfig(dir, value) {', "  const file = path.join(dir, 'config.json');", ...body, '  cache.set(file, value);', '}'];
const newWrite = ['  const tmp = path.join(os.tmpdir(), `config-${process.pid}.json`);', '  fs.writeFileSync(tmp, JSON.stringify(value, null, 2));', '  fs.renameSync(tmp, file);'];
const imports = (extra: string[]): string[] => ["import fs from 'node:fs';", ...extra, "import path from 'node:path';", '', 'const cache = new Map();', ''];

const code = lines([...imports([]), ...readConfig, ...forget, ...configKeys, ...writeConfig(['  fs.writeFileSync(file, JSON.stringify(value));'])]);
// The last function first, then the first one's head and the head of the one that now follows it.
const update = lines([
  "import fs from 'node:fs';", "import os from 'node:os';", "import path from 'node:path';", '', '// ... existing code ...', '',
  ...writeConfig(newWrite), '', '// ... existing code ...', '', readConfig[0]!, '  // ... unchanged', '}', '', configKeys[0]!]);
const expected = lines([...imports(["import os from 'node:os';"]), ...readConfig, ...configKeys, ...writeConfig(newWrite)]);

describe('orderz: markers read in file order', () => {
  it('a function removed between two hunks written after a later one stays removed (JavaScript)', () => mergedEverywhere(code, update, expected));
});
