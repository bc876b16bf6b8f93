// SentencePiece-style tokenizer as llama.cpp's llm_tokenizer_spm_session: start from UTF-8
// characters, repeatedly merge the adjacent pair whose concatenation is a token with the highest
// score (leftmost on ties); pieces that are not tokens fall back to <0xNN> byte tokens.

export interface SpmVocab {
  tokenToId: Map<string, number>;
  scores: ArrayLike<number>;
  /** byte value -> id of <0xNN>, or -1. */
  byteIds: Int32Array;
}

const utf8 = new TextEncoder();

export class SpmModel {
  constructor(private readonly vocab: SpmVocab) {}

  /** Appends the ids of text (spaces already escaped to U+2581). */
  encode(text: string, out: number[]): void {
    const chars = Array.from(text);
    const n = chars.length;
    if (n === 0) return;
    // Symbols: [start, len] in UTF-16 units of text, linked list.
    const start = new Int32Array(n);
    const len = new Int32Array(n);
    const next = new Int32Array(n);
    const prev = new Int32Array(n);
    let off = 0;
    for (let i = 0; i < n; i++) {
      start[i] = off;
      len[i] = chars[i]!.length;
      off += len[i]!;
      next[i] = i + 1 < n ? i + 1 : -1;
      prev[i] = i - 1;
    }
    const heap: Array<{ score: number; left: number; right: number; size: number }> = [];
    const better = (a: (typeof heap)[0], b: (typeof heap)[0]) => a.score > b.score || (a.score === b.score && a.left < b.left);
    const push = (l: number, r: number) => {
      if (l < 0 || r < 0) return;
      const s = text.slice(start[l]!, start[l]! + len[l]! + len[r]!);
      const id = this.vocab.tokenToId.get(s);
      if (id === undefined) return;
      heap.push({ score: this.vocab.scores[id] ?? 0, left: l, right: r, size: s.length });
      let i = heap.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!better(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    };
    const pop = () => {
      const top = heap[0]!;
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        let i = 0;
        for (;;) {
          const a = 2 * i + 1;
          const b = a + 1;
          let m = i;
          if (a < heap.length && better(heap[a]!, heap[m]!)) m = a;
          if (b < heap.length && better(heap[b]!, heap[m]!)) m = b;
          if (m === i) break;
          [heap[i], heap[m]] = [heap[m]!, heap[i]!];
          i = m;
        }
      }
      return top;
    };
    for (let i = 1; i < n; i++) push(i - 1, i);
    while (heap.length > 0) {
      const bg = pop();
      const l = bg.left;
      const r = bg.right;
      if (len[l] === 0 || len[r] === 0 || len[l]! + len[r]! !== bg.size) continue;
      len[l] = len[l]! + len[r]!;
      len[r] = 0;
      next[l] = next[r]!;
      if (next[r]! >= 0) prev[next[r]!] = l;
      push(prev[l]!, l);
      push(l, next[l]!);
    }
    for (let i = 0; i >= 0; i = next[i]!) {
      const s = text.slice(start[i]!, start[i]! + len[i]!);
      const id = this.vocab.tokenToId.get(s);
      if (id !== undefined) {
        out.push(id);
        continue;
      }
      for (const b of utf8.encode(s)) {
        const bid = this.vocab.byteIds[b]!;
        if (bid >= 0) out.push(bid);
        else {
          const single = this.vocab.tokenToId.get(String.fromCharCode(b));
          if (single === undefined) throw new Error(`tokenizer: no token for byte 0x${b.toString(16)}`);
          out.push(single);
        }
      }
    }
  }
}
