// How llama.cpp splits text under the regexes it runs through std::regex on collapsed text
// (gpt-4o, tekken, deepseek-v3): the cases where that differs from the tokenizer.json regex are
// the point. (test/exactness/tokenizer-llamacpp.test.ts checks whole corpora against llama.cpp.)
import { describe, expect, it } from 'vitest';
import { PRE_TOKENIZERS, preTokenize } from '../../src/tokenizer/pre-tokenizers.js';

const split = (pre: string, text: string) => preTokenize(text, PRE_TOKENIZERS[pre]!.steps);

describe('collapsed-regex pre-tokenizers', () => {
  it('gpt-4o: ASCII case changes split words; a non-ASCII letter counts as both cases', () => {
    expect(split('gpt-4o', 'HelloWorld')).toEqual(['Hello', 'World']);
    // HF: "hello" "ÉCOLE" (É is uppercase); llama.cpp: É also matches the lowercase class.
    expect(split('gpt-4o', 'helloÉCOLE')).toEqual(['helloÉ', 'COLE']);
  });

  it('gpt-4o: combining marks are not letters (HF keeps them in the word)', () => {
    expect(split('gpt-4o', ' नमस्ते')).toEqual([' नमस', '्त', 'े']);
  });

  it('gpt-4o and tekken: digits in threes / one by one, a slash run stays with punctuation', () => {
    expect(split('gpt-4o', ' 12345')).toEqual([' ', '123', '45']);
    expect(split('tekken', 'x 123 a/b//c\n')).toEqual(['x', ' ', '1', '2', '3', ' a', '/b', '//', 'c', '\n']);
  });

  it('deepseek-v3: digit groups, CJK runs, then the word regex', () => {
    expect(split('deepseek-v3', '价格是1234567元，日本語テキスト abc.def')).toEqual(['价格是', '123', '456', '7', '元', '，', '日本語テキスト', ' abc', '.def']);
  });

  it('cuts the original text: surrogate pairs and non-ASCII whitespace survive the views', () => {
    const text = 'a😀b\u3000c\u{10D40}1 你好\u00a0x';
    for (const pre of ['gpt-4o', 'tekken', 'deepseek-v3']) expect(split(pre, text).join('')).toBe(text);
  });
});
