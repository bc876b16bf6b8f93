// Request sources for the serving benchmark. Each yields chat request bodies; all are
// deterministic for a given seed so two servers are driven with the same requests.
import { readFileSync } from 'node:fs';
import type { ChatRequestBody } from './client.js';
import { seededRandom } from './stats.js';

export type DatasetSpec =
  | { kind: 'synthetic'; inputTokens: number; outputTokens: number; spread: number }
  | { kind: 'shared-prefix'; prefixes: number; suffixesPerPrefix: number; prefixTokens: number; suffixTokens: number; outputTokens: number }
  | { kind: 'jsonl'; path: string }
  | { kind: 'apply'; lines: number };

// Common English words: about one token each for BPE vocabularies, so word counts approximate
// token counts closely enough for load shaping (servers report exact usage; we record it).
const WORDS = ('the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part').split(' ');

function words(rand: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)] as string);
  return out.join(' ');
}

function jitter(rand: () => number, mean: number, spread: number): number {
  return Math.max(1, Math.round(mean * (1 - spread + 2 * spread * rand())));
}

/** A simple source file of `lines` lines and an update snippet that edits two places in it. */
export function makeApplyCase(lines: number, rand: () => number): { code: string; update: string; instruction: string } {
  const body: string[] = [];
  for (let i = 0; i < lines; i++) {
    if (i % 10 === 0) body.push(`function step${i}(input) {`);
    else if (i % 10 === 9) body.push('}');
    else body.push(`  const v${i} = input * ${Math.floor(rand() * 1000)} + ${i};`);
  }
  const a = Math.min(lines - 1, Math.floor(lines / 3)) - (Math.floor(lines / 3) % 10);
  const b = Math.min(lines - 1, Math.floor((2 * lines) / 3)) - (Math.floor((2 * lines) / 3) % 10);
  const update = [
    '// ... existing code ...',
    `function step${a}(input) {`,
    `  console.log('entering step${a}');`,
    '// ... existing code ...',
    `function step${b}(input) {`,
    `  if (input < 0) throw new Error('negative');`,
    '// ... existing code ...',
  ].join('\n');
  return { code: body.join('\n') + '\n', update, instruction: `I am adding logging to step${a} and a guard to step${b}.` };
}

export function loadDataset(spec: DatasetSpec, model: string, count: number, seed: number): ChatRequestBody[] {
  const rand = seededRandom(seed);
  const out: ChatRequestBody[] = [];
  switch (spec.kind) {
    case 'synthetic':
      for (let i = 0; i < count; i++) {
        out.push({ model, max_tokens: jitter(rand, spec.outputTokens, spec.spread), messages: [{ role: 'user', content: words(rand, jitter(rand, spec.inputTokens, spec.spread)) }] });
      }
      return out;
    case 'shared-prefix': {
      const prefixes = Array.from({ length: spec.prefixes }, () => words(rand, spec.prefixTokens));
      for (let i = 0; i < count; i++) {
        const prefix = prefixes[i % spec.prefixes] as string;
        const suffix = words(rand, spec.suffixTokens);
        out.push({ model, max_tokens: spec.outputTokens, messages: [{ role: 'system', content: prefix }, { role: 'user', content: suffix }] });
      }
      return out;
    }
    case 'jsonl': {
      const lines = readFileSync(spec.path, 'utf8').split('\n').filter((l) => l.trim() !== '');
      if (lines.length === 0) throw new Error(`dataset ${spec.path} has no requests`);
      const bodies = lines.map((line, i) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          throw new Error(`dataset ${spec.path} line ${i + 1}: not JSON`);
        }
        // Accept plain chat bodies and batch-input lines ({custom_id, body}).
        const obj = (parsed as { body?: unknown }).body ?? parsed;
        if (typeof obj !== 'object' || obj === null || !Array.isArray((obj as { messages?: unknown }).messages)) {
          throw new Error(`dataset ${spec.path} line ${i + 1}: needs a messages array`);
        }
        return { model, ...(obj as object) } as ChatRequestBody;
      });
      for (let i = 0; i < count; i++) out.push(bodies[i % bodies.length] as ChatRequestBody);
      return out;
    }
    case 'apply':
      for (let i = 0; i < count; i++) {
        const c = makeApplyCase(spec.lines, rand);
        out.push({ model, messages: [{ role: 'user', content: `<instruction>${c.instruction}</instruction>\n<code>${c.code}</code>\n<update>${c.update}</update>` }] });
      }
      return out;
  }
}

/** Parses `synthetic`, `synthetic:IN:OUT`, `shared-prefix:N:M:P:S:OUT`, `jsonl:PATH`, `apply:LINES`. */
export function parseDatasetSpec(text: string): DatasetSpec {
  const [kind, ...rest] = text.split(':');
  const nums = rest.map(Number);
  const bad = () => new Error(`bad --dataset '${text}'`);
  switch (kind) {
    case 'synthetic':
      if (nums.some((n) => !Number.isFinite(n) || n <= 0)) throw bad();
      return { kind, inputTokens: nums[0] ?? 128, outputTokens: nums[1] ?? 64, spread: 0.25 };
    case 'shared-prefix':
      if (nums.some((n) => !Number.isFinite(n) || n <= 0)) throw bad();
      return { kind, prefixes: nums[0] ?? 4, suffixesPerPrefix: nums[1] ?? 8, prefixTokens: nums[2] ?? 512, suffixTokens: nums[3] ?? 32, outputTokens: nums[4] ?? 32 };
    case 'jsonl':
      if (rest.length === 0) throw bad();
      return { kind, path: rest.join(':') };
    case 'apply':
      if (nums.some((n) => !Number.isFinite(n) || n <= 0)) throw bad();
      return { kind, lines: nums[0] ?? 100 };
    default:
      throw bad();
  }
}
