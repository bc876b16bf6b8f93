// Text corpus for tokenizer comparisons: fixed cases that hit every pre-tokenizer branch, plus a
// seeded random mix of characters from many scripts and whitespace kinds.
import { Rng } from '../../src/model-maker/prng.js';

export const FIXED_CORPUS: string[] = [
  '',
  'Hello world',
  "Hello, world! It's a test. We'll see what THEY'RE doing; you've I'm he'd she'LL",
  'The quick brown fox jumps over the lazy dog.\nSecond line.\r\nWindows line.\rOld Mac line.',
  // code
  'function add(a: number, b: number): number {\n  return a + b; // sum\n}\n\nexport default add;\n',
  'def fib(n):\n    """Fibonacci."""\n    if n < 2:\n        return n\n    return fib(n-1) + fib(n-2)\n\nprint([fib(i) for i in range(10)])\n',
  '#include <stdio.h>\nint main(void) {\n\tprintf("%d\\n", 42);\n\treturn 0;\n}\n',
  '{"name": "svc", "version": "0.1.0", "nested": {"a": [1, 2.5, -3e10, null, true]}}',
  '<div class="x" id=\'y\'>&amp; &lt;tag&gt;</div>\n<!-- comment -->',
  'SELECT * FROM users WHERE id = 42 AND name LIKE \'%o%\';',
  'x+=1;y-=2;z*=3;w/=4;a**=b;c<<=1;d>>>=2;e&&=f;g||=h;i??=j',
  '    indented with spaces\n\t\tindented with tabs\n  \t mixed \t \n',
  // numbers
  '0 1 12 123 1234 12345 123456 1234567 3.14159 2,718,281 1e-9 0x1F 007',
  'Version 2.0.1-beta+build.123, port 8080, year 2024, 99.9% uptime',
  // prose in several languages
  'Ça va? Très bien, merci. Où est la bibliothèque? Naïve café, déjà vu.',
  'Größe, Straße, Äpfel und Öl. Übermäßig!',
  'Москва — столица России. Привет, мир!',
  'Γειά σου Κόσμε. Αλφάβητο.',
  'مرحبا بالعالم. هذا نص عربي.',
  'שלום עולם',
  'नमस्ते दुनिया। यह हिंदी है।',
  'สวัสดีชาวโลก ภาษาไทย',
  // CJK
  '你好，世界！这是一个测试。中文分词很有趣。',
  '日本語のテキストです。カタカナとひらがなと漢字。',
  '한국어 텍스트입니다. 안녕하세요!',
  '混合text和English以及123数字',
  // emoji
  'emoji 😀😃😄 👍🏽👍🏿 👨‍👩‍👧‍👦 🇺🇸🇯🇵 ❤️ ✨🔥💯',
  'a😀b😀c 😀 😀😀 😀\n😀',
  // unicode details
  'e\u0301 vs \u00e9, A\u030a vs \u00c5, \u1e9b\u0323',
  'zero\u200bwidth\u200cjoiner\u200dtest\u2060word',
  'math: ∑ ∫ √ ∞ ≠ ≤ ≥ ± × ÷ ∂ ∇ ∈ ∉ ∀ ∃ ℝ ℕ',
  'symbols: © ® ™ § ¶ † ‡ • … ‰ ′ ″ € £ ¥ ₹ ₿ ¢',
  'ﬁ ﬂ ﬀ ﬃ ① ② ③ Ⅻ ½ ¼ ¾ ² ³',
  '\u0000\u0001\u0007\u001b[31mred\u001b[0m\u007f',
  // whitespace runs and kinds
  'a  b   c    d     e      f',
  '          ten spaces then text',
  'trailing spaces      ',
  '\n\n\n\nnewlines\n\n\n',
  '\t\t\t\ttabs\t\t',
  ' \n \n \n ',
  'nbsp\u00a0\u00a0here, em\u2003space, ideo\u3000space, nel\u0085char, bom\ufeffchar, thin\u2009space',
  'line\u2028sep\u2029para',
  ' '.repeat(300),
  'a'.repeat(500),
  '=' .repeat(120) + '\n' + '-'.repeat(77),
  // punctuation clusters
  '!!!??? ... --- *** ((())) [[]] {{}} <<<>>> ### @@@ $$$ %%% ^^^ &&& ||| ~~~ ```',
  "'s 's 'S 'll 'LL 'Ll ' s '' ''' 're 'Re 'rE",
  'https://example.com/path?query=1&b=two#frag mailto:user@example.org',
  '# Title\n\n- item **bold** _it_ `code`\n\n> quote\n\n| a | b |\n|---|---|\n| 1 | 2 |',
  // special and added tokens written as text
  '<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n',
  '<|endoftext|><|endoftext|>text<|endoftext|>',
  '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>',
  '<think>\nreasoning\n</think>\n\nanswer',
  '<|im_start partial <|im_end| and |>< <|fim_prefix|>a<|fim_middle|>b<|fim_suffix|>',
  '<s>bos-like</s> <unk> [PAD151700]',
];

const POOLS: string[] = [
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  '0123456789',
  ' ',
  '    \t\n\r',
  '.,;:!?\'"()[]{}<>-_=+*/\\|@#$%^&~`',
  'éèêëàâäôöûüçñßøåæœ',
  'абвгдежзийклмнопрстуфхцчшщыэюя',
  '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年',
  'あいうえおかきくけこアイウエオカキクケコ',
  '가나다라마바사아자차카타파하',
  'ابتثجحخدذرزسشصضطظعغفقكلمنهوي',
  '\u00a0\u2003\u3000\u0085\u2009\u200b\ufeff',
  '😀👍🏽🇺🇸❤️✨🔥👨‍👩‍👧',
  "'s 're 've 'll 'd 'm 't",
  '<|im_start|><|im_end|><|endoftext|><tool_call></tool_call>',
];

/** n random strings of up to maxLen code points, deterministic for a seed. */
export function randomCorpus(seed: number, n: number, maxLen = 80): string[] {
  const rng = new Rng(`corpus:${seed}`);
  const pools = POOLS.map((p) => Array.from(p));
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const len = 1 + (rng.nextU32() % maxLen);
    let s = '';
    let pool = pools[0]!;
    for (let j = 0; j < len; j++) {
      if (rng.nextU32() % 4 === 0) pool = pools[rng.nextU32() % pools.length]!;
      s += pool[rng.nextU32() % pool.length]!;
    }
    out.push(s);
  }
  return out;
}
