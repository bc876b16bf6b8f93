// Byte-level BPE as llama.cpp's llm_tokenizer_bpe_session: merge the lowest-ranked adjacent pair
// first (leftmost on ties), on token ids, with a cache of pre-token words.
import { byteLevelEncode } from './byte-level.js';

export interface BpeVocab {
  tokenToId: Map<string, number>;
  merges: ArrayLike<string>;
}

const CACHE_LIMIT = 200_000;
/** Longer words are encoded every time (a few huge words must not pin megabytes in the cache). */
const CACHE_MAX_WORD = 256;

export class BpeModel {
  /** key a*stride+b -> rank; result ids in mergeResult at the same key. */
  private readonly rank = new Map<number, number>();
  private readonly result = new Map<number, number>();
  private readonly stride: number;
  private readonly cache = new Map<string, readonly number[]>();
  /** Id of each byte-level character (code point -> id). */
  private readonly charId = new Map<number, number>();

  constructor(
    private readonly vocab: BpeVocab,
    private readonly ignoreMerges: boolean,
  ) {
    this.stride = vocab.tokenToId.size + 1;
    for (let r = 0; r < vocab.merges.length; r++) {
      const m = vocab.merges[r]!;
      const sp = m.indexOf(' ', 1);
      if (sp < 0) continue;
      const a = vocab.tokenToId.get(m.slice(0, sp));
      const b = vocab.tokenToId.get(m.slice(sp + 1));
      const c = vocab.tokenToId.get(m.slice(0, sp) + m.slice(sp + 1));
      if (a === undefined || b === undefined || c === undefined) continue;
      const key = a * this.stride + b;
      if (!this.rank.has(key)) {
        this.rank.set(key, r);
        this.result.set(key, c);
      }
    }
  }

  /** Appends the ids of one pre-token word (raw text, before byte-level mapping). */
  encodeWord(word: string, out: number[]): void {
    let ids = this.cache.get(word);
    if (ids === undefined) {
      ids = this.bpe(byteLevelEncode(word));
      if (word.length <= CACHE_MAX_WORD) {
        if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
        this.cache.set(word, ids);
      }
    }
    for (let i = 0; i < ids.length; i++) out.push(ids[i]!);
  }

  private idOfChar(cp: number, ch: string): number {
    let id = this.charId.get(cp);
    if (id === undefined) {
      id = this.vocab.tokenToId.get(ch) ?? -1;
      this.charId.set(cp, id);
    }
    return id;
  }

  private bpe(enc: string): number[] {
    if (this.ignoreMerges) {
      const whole = this.vocab.tokenToId.get(enc);
      if (whole !== undefined) return [whole];
    }
    const chars = Array.from(enc);
    const n = chars.length;
    const id = new Int32Array(n);
    for (let i = 0; i < n; i++) id[i] = this.idOfChar(chars[i]!.codePointAt(0)!, chars[i]!);
    if (n === 1) return id[0]! >= 0 ? [id[0]!] : [];
    const next = new Int32Array(n);
    const prev = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      next[i] = i + 1 < n ? i + 1 : -1;
      prev[i] = i - 1;
    }
    const heap = new PairHeap();
    const push = (l: number): void => {
      const r = next[l]!;
      if (r < 0 || id[l]! < 0 || id[r]! < 0) return;
      const key = id[l]! * this.stride + id[r]!;
      const rank = this.rank.get(key);
      if (rank !== undefined) heap.push(rank, l, r, id[l]!, id[r]!);
    };
    for (let i = 0; i + 1 < n; i++) push(i);
    while (heap.size > 0) {
      const [, l, r, idl, idr] = heap.pop();
      // Stale entries: a side was merged away or changed since the pair was queued.
      if (id[l] !== idl || id[r] !== idr || next[l] !== r) continue;
      id[l] = this.result.get(idl * this.stride + idr)!;
      id[r] = -2; // dead
      next[l] = next[r]!;
      if (next[r]! >= 0) prev[next[r]!] = l;
      if (prev[l]! >= 0) push(prev[l]!);
      push(l);
    }
    const out: number[] = [];
    for (let i = 0; i >= 0; i = next[i]!) {
      if (id[i]! >= 0) out.push(id[i]!);
      // A character missing from the vocabulary yields nothing, as llama.cpp's byte lookup does.
    }
    return out;
  }
}

/** Binary min-heap of (rank, left) with payload; ties broken by the left position. */
class PairHeap {
  private rank: number[] = [];
  private left: number[] = [];
  private right: number[] = [];
  private idl: number[] = [];
  private idr: number[] = [];
  get size(): number {
    return this.rank.length;
  }
  private less(a: number, b: number): boolean {
    return this.rank[a]! < this.rank[b]! || (this.rank[a] === this.rank[b] && this.left[a]! < this.left[b]!);
  }
  private swap(a: number, b: number): void {
    for (const arr of [this.rank, this.left, this.right, this.idl, this.idr]) {
      const t = arr[a]!;
      arr[a] = arr[b]!;
      arr[b] = t;
    }
  }
  push(rank: number, l: number, r: number, idl: number, idr: number): void {
    this.rank.push(rank);
    this.left.push(l);
    this.right.push(r);
    this.idl.push(idl);
    this.idr.push(idr);
    let i = this.rank.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): [number, number, number, number, number] {
    const top: [number, number, number, number, number] = [this.rank[0]!, this.left[0]!, this.right[0]!, this.idl[0]!, this.idr[0]!];
    const last = this.rank.length - 1;
    this.swap(0, last);
    this.rank.pop();
    this.left.pop();
    this.right.pop();
    this.idl.pop();
    this.idr.pop();
    let i = 0;
    const n = this.rank.length;
    for (;;) {
      const a = 2 * i + 1;
      const b = a + 1;
      let m = i;
      if (a < n && this.less(a, m)) m = a;
      if (b < n && this.less(b, m)) m = b;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }
}
