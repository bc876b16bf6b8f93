// Tokenizer throughput on ~100 KB of mixed text (code, prose, CJK, emoji, whitespace runs) with the
// built-in model's Qwen vocabulary: cold (fresh tokenizer, empty word cache) and warm encode,
// decode, and stream decode token by token. Prints medians in ms and MB/s.
//   node dist/bench/tokenizer/tokenizer-bench.js [--model PATH] [--reps N]
import { parseArgs } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGgufHeader } from '../../src/gguf/gguf-reader.js';
import { ensureBuiltinModel } from '../../src/model-maker/index.js';
import { createTokenizer } from '../../src/tokenizer/index.js';

const SAMPLES = [
  'function add(a: number, b: number): number {\n  return a + b; // sum\n}\n\n',
  'The quick brown fox jumps over the lazy dog. It\'s 2024, and we\'ll see 3.14159 of them.\n',
  '你好，世界！这是一个测试。日本語のテキストです。한국어 텍스트입니다.\n',
  'emoji 😀👍🏽 👨‍👩‍👧‍👦 🇺🇸 ✨🔥 and    whitespace\t\truns   \n\n\n',
  '{"name": "svc", "values": [1, 2.5, -3e10, null, true], "nested": {"k": "v"}}\n',
  'Ça va? Très bien, merci. Größe, Straße. Москва — столица России.\n',
];

function corpus(bytes: number): string {
  let s = '';
  let i = 0;
  while (Buffer.byteLength(s) < bytes) s += `${SAMPLES[i++ % SAMPLES.length]!}${i} `;
  return s;
}

function median(xs: number[]): number {
  const a = [...xs].sort((x, y) => x - y);
  return a[Math.floor(a.length / 2)]!;
}

const { values } = parseArgs({ options: { model: { type: 'string' }, reps: { type: 'string', default: '7' } } });
const reps = Number(values.reps);
const path = values.model ?? (await ensureBuiltinModel(join(tmpdir(), 'svc-bench-data')));
const md = readGgufHeader(path).metadata;
const text = corpus(100 * 1024);
const mb = Buffer.byteLength(text) / 1e6;

const t0 = performance.now();
createTokenizer(md);
const buildMs = performance.now() - t0;

const cold: number[] = [];
const warm: number[] = [];
const dec: number[] = [];
const stream: number[] = [];
let nTokens = 0;
for (let r = 0; r < reps; r++) {
  const tok = createTokenizer(md);
  let s = performance.now();
  const ids = tok.encode(text);
  cold.push(performance.now() - s);
  s = performance.now();
  tok.encode(text);
  warm.push(performance.now() - s);
  s = performance.now();
  const back = tok.decode(ids);
  dec.push(performance.now() - s);
  if (back !== text) throw new Error('round trip failed');
  s = performance.now();
  const sd = tok.createStreamDecoder();
  let out = '';
  for (const id of ids) out += sd.push(id);
  out += sd.flush();
  stream.push(performance.now() - s);
  if (out !== text) throw new Error('stream round trip failed');
  nTokens = ids.length;
}
const row = (name: string, xs: number[]) => `| ${name} | ${median(xs).toFixed(1)} | ${(mb / (median(xs) / 1000)).toFixed(1)} |`;
console.log(`tokenizer bench: ${(mb * 1000).toFixed(0)} KB, ${nTokens} tokens, ${reps} reps (medians); createTokenizer ${buildMs.toFixed(0)} ms`);
console.log('| step | ms | MB/s |\n|---|---|---|');
console.log([row('encode, cold cache', cold), row('encode, warm cache', warm), row('decode', dec), row('stream decode, per token', stream)].join('\n'));
