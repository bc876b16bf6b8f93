// Response and tool-call identifiers in each vendor's style.
import { randomFillSync } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// Random bytes are drawn 4 KiB at a time: one crypto call per ~170 ids instead of one per id.
const pool = Buffer.alloc(4096);
let used = pool.length;

function token(len: number): string {
  if (used + len > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let s = '';
  for (let i = 0; i < len; i++) s += ALPHABET[pool[used + i]! % ALPHABET.length];
  used += len;
  return s;
}

export const newChatCompletionId = (): string => `chatcmpl-${token(24)}`;
export const newOpenAIToolCallId = (): string => `call_${token(24)}`;
export const newMessageId = (): string => `msg_${token(24)}`;
export const newAnthropicToolUseId = (): string => `toolu_${token(24)}`;
