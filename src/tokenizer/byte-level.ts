// GPT-2 byte-level mapping: every byte gets a printable code point so BPE works on strings.

function build(): { byteToChar: string[]; charToByte: Map<number, number> } {
  const bs: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) bs.push(b);
  for (let b = 0xa1; b <= 0xac; b++) bs.push(b);
  for (let b = 0xae; b <= 0xff; b++) bs.push(b);
  const cs = bs.slice();
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  }
  const byteToChar: string[] = new Array(256);
  const charToByte = new Map<number, number>();
  bs.forEach((b, i) => {
    byteToChar[b] = String.fromCodePoint(cs[i]!);
    charToByte.set(cs[i]!, b);
  });
  return { byteToChar, charToByte };
}

const { byteToChar, charToByte } = build();

export const BYTE_TO_CHAR: readonly string[] = byteToChar;

const utf8 = new TextEncoder();

/** UTF-8 bytes of text, each mapped to its byte-level character. */
export function byteLevelEncode(text: string): string {
  const bytes = utf8.encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += byteToChar[bytes[i]!]!;
  return out;
}

/** Inverse of byteLevelEncode for one token's text. Characters outside the map keep their UTF-8 bytes
 *  (llama.cpp would print an [UNK_BYTE] marker; a valid vocabulary never has them). */
export function byteLevelDecode(piece: string): Uint8Array {
  const out: number[] = [];
  for (const ch of piece) {
    const cp = ch.codePointAt(0)!;
    const b = charToByte.get(cp);
    if (b !== undefined) out.push(b);
    else for (const x of utf8.encode(ch)) out.push(x);
  }
  return Uint8Array.from(out);
}
