// Response and tool-call identifiers in each vendor's style.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function token(len: number): string {
  const b = randomBytes(len);
  let s = '';
  for (let i = 0; i < len; i++) s += ALPHABET[b[i]! % ALPHABET.length];
  return s;
}

export const newChatCompletionId = (): string => `chatcmpl-${token(24)}`;
export const newOpenAIToolCallId = (): string => `call_${token(24)}`;
export const newMessageId = (): string => `msg_${token(24)}`;
export const newAnthropicToolUseId = (): string => `toolu_${token(24)}`;
