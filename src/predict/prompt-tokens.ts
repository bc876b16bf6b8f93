// Turns event lines into prompt tokens line by line, so a session whose recording grows gets
// a token sequence that extends the previous one exactly: the prefix cache then makes the n-th
// call pay only for its new events. Tokens of recent lines are memoized (bounded by bytes).
import type { LoadedModel } from '../engine/types.js';

export class PromptTokenizer {
  private readonly cache = new Map<string, Uint32Array>();
  private cachedBytes = 0;
  private prefix: Uint32Array | null = null;

  constructor(private readonly model: LoadedModel, private readonly maxCacheBytes = 64 * 1024 * 1024) {}

  async tokens(lines: string[]): Promise<Uint32Array> {
    // BOS (or nothing) exactly as the model's tokenizer adds it to a fresh text.
    this.prefix ??= await this.model.tokenize('', { addSpecial: true, parseSpecial: false });
    const parts: Uint32Array[] = [this.prefix];
    let total = this.prefix.length;
    for (const line of lines) {
      const t = await this.lineTokens(line);
      parts.push(t);
      total += t.length;
    }
    const out = new Uint32Array(total);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  private async lineTokens(line: string): Promise<Uint32Array> {
    const hit = this.cache.get(line);
    if (hit) {
      this.cache.delete(line);
      this.cache.set(line, hit); // most recently used last
      return hit;
    }
    const t = await this.model.tokenize(line + '\n', { addSpecial: false, parseSpecial: false });
    this.cache.set(line, t);
    this.cachedBytes += line.length + t.byteLength;
    for (const [key, value] of this.cache) {
      if (this.cachedBytes <= this.maxCacheBytes) break;
      this.cache.delete(key);
      this.cachedBytes -= key.length + value.byteLength;
    }
    return t;
  }
}
