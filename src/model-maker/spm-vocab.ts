// A synthetic SentencePiece-style vocabulary (tokenizer.ggml.model = llama) for tests of the SPM
// tokenizer path: <unk>, <s>, </s>, the 256 <0xNN> byte tokens, printable ASCII characters, then
// whole-character pieces derived from the Qwen BPE merges in rank order (spaces as U+2581), scored
// by rank so earlier merges win, like a real SPM model's log-probabilities.
import { byteLevelDecode } from '../tokenizer/byte-level.js';
import { TokenType } from '../tokenizer/index.js';
import { qwenVocab } from '../assets/qwen-vocab.js';

export interface SpmVocabData {
  tokens: string[];
  types: number[];
  scores: number[];
  bos: number;
  eos: number;
  unk: number;
}

const strict = new TextDecoder('utf-8', { fatal: true });

export function syntheticSpmVocab(size: number): SpmVocabData {
  if (!Number.isInteger(size) || size < 400) throw new Error(`SPM vocab size must be >= 400, got ${size}`);
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [TokenType.UNKNOWN, TokenType.CONTROL, TokenType.CONTROL];
  const scores = [0, 0, 0];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TokenType.BYTE);
    scores.push(0);
  }
  const seen = new Set(tokens);
  const add = (piece: string, score: number) => {
    if (tokens.length >= size || seen.has(piece)) return;
    seen.add(piece);
    tokens.push(piece);
    types.push(TokenType.NORMAL);
    scores.push(score);
  };
  add('\u2581', -1);
  for (let c = 0x21; c < 0x7f; c++) add(String.fromCharCode(c), -2);
  const q = qwenVocab();
  for (let i = 256; i < q.tokens.length && tokens.length < size; i++) {
    if (q.types[i] !== TokenType.NORMAL) continue;
    let text: string;
    try {
      text = strict.decode(byteLevelDecode(q.tokens[i]!));
    } catch {
      continue; // a partial UTF-8 sequence is not a valid SentencePiece piece
    }
    if (text.length === 0 || /[\p{Cc}]/u.test(text)) continue;
    add(text.replaceAll(' ', '\u2581'), -(i - 255));
  }
  return { tokens, types, scores, bos: 1, eos: 2, unk: 0 };
}
