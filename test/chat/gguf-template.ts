// A copy of a generated GGUF with `tokenizer.chat_template` added, for a family whose vocabulary
// package ships no template (gpt-oss): the tensors are untouched. The new key/value goes right
// after the header counts; its size is made a multiple of the file's alignment (the template
// padded with trailing newlines, which the harmony template's final `-%}` trims), so the tensor
// data moves by whole alignment units and every offset in the file stays valid.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readGgufHeader } from '../../src/gguf/gguf-reader.js';
import { GgufValueType } from '../../src/gguf/types.js';

const KEY = 'tokenizer.chat_template';

export function withChatTemplate(src: string, template: string, out: string): string {
  if (existsSync(out)) return out;
  const header = readGgufHeader(src);
  if (KEY in header.metadata) throw new Error(`${src} already has a chat template`);
  const key = Buffer.from(KEY, 'utf8');
  let value = Buffer.from(template, 'utf8');
  const size = (v: Buffer): number => 8 + key.length + 4 + 8 + v.length;
  const pad = (header.alignment - (size(value) % header.alignment)) % header.alignment;
  value = Buffer.concat([value, Buffer.alloc(pad, 0x0a)]);
  const kv = Buffer.alloc(size(value));
  let o = kv.writeBigUInt64LE(BigInt(key.length), 0);
  o += key.copy(kv, o);
  o = kv.writeUInt32LE(GgufValueType.STRING, o);
  o = kv.writeBigUInt64LE(BigInt(value.length), o);
  value.copy(kv, o);
  const file = readFileSync(src);
  // magic, version, tensor count (u64), key/value count (u64): 24 bytes.
  const counts = Buffer.from(file.subarray(0, 24));
  counts.writeBigUInt64LE(counts.readBigUInt64LE(16) + 1n, 16);
  const tmp = `${out}.tmp-${process.pid}`;
  writeFileSync(tmp, Buffer.concat([counts, kv, file.subarray(24)]));
  renameSync(tmp, out);
  const check = readGgufHeader(out);
  if (check.metadata[KEY] !== value.toString('utf8') || check.dataOffset !== header.dataOffset + kv.length) throw new Error('withChatTemplate: the copy does not read back');
  return out;
}
