// Runs one choice of a chat request on the engine: stop sequences, output parsing (text, reasoning,
// tool calls), forced tool calls under the tool's schema, token accounting. Format-neutral: the
// OpenAI and Anthropic layers turn its events and result into their own wire shapes.
import type { GenerateResult, GrammarSpec, LoadedModel, TokenEvent } from '../engine/types.js';
import { apiError } from '../errors.js';
import { leaveIntake } from '../intake.js';
import { EngineError } from '../engine/engine-errors.js';
import { OutputParser, type ChatOutputParser, type OutputEvent } from './output-parser.js';
import { HarmonyParser, openHarmonyHeader } from './harmony-parser.js';
import { answerPrefix, type ModelChatFormat } from './chat-format.js';
import type { ChatPlan, ToolSpec } from './plan.js';
import type { BuiltPrompt } from './prompt.js';
import { tokenizePrompt } from './prompt.js';
import { StopMatcher } from './stop-matcher.js';
import { grammarSchema } from './schema-defaults.js';

export interface LogprobEntry {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: Array<{ token: string; logprob: number; bytes: number[] }>;
}

export type ChoiceEvent =
  | { type: 'text'; text: string; logprobs?: LogprobEntry[] }
  | { type: 'thinking'; text: string; logprobs?: LogprobEntry[] }
  | { type: 'tool_start'; index: number; id: string; name: string }
  | { type: 'tool_args'; index: number; fragment: string };

export interface ToolCallResult {
  id: string;
  name: string;
  /** JSON text of the arguments object. */
  arguments: string;
}

export type ChoiceFinish = 'stop' | 'length' | 'tool_calls' | 'stop_sequence' | 'cancelled';

export interface ChoiceResult {
  text: string;
  thinking: string;
  toolCalls: ToolCallResult[];
  finish: ChoiceFinish;
  /** The stop sequence that ended the output (finish 'stop_sequence'). */
  stopSequence: string | null;
  /** True when the tool call was forced by a named tool choice. */
  forcedNamed: boolean;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  /** Logprob entries not yet attached to a text event (all of them for non-streaming use). */
  logprobs: LogprobEntry[];
  /** Draft tokens the model accepted / rejected (predicted outputs: the apply LLM's draft). */
  prediction?: { accepted: number; rejected: number };
}

export interface RunOptions {
  maxTokens: number;
  signal?: AbortSignal;
  priority?: 'interactive' | 'batch';
  /** Seed override for choice i of n. */
  seed?: number;
  newToolCallId: () => string;
  onEvent?: (ev: ChoiceEvent) => void;
  /** Called once, before the choice's first event, with the prompt tokens the prefix cache served
   *  (the result's cachedTokens), so that a stream can report usage up front. */
  onPrefilled?: (cachedTokens: number) => void;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** OpenAI's `token` for a token's bytes: its text, or `bytes:\xe4…` when the bytes are only part of
 *  a UTF-8 character (the `bytes` array then lets a client join such tokens). */
function tokenString(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return 'bytes:' + Array.from(bytes, (b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
  }
}

function logprobEntry(ev: TokenEvent): LogprobEntry {
  const own = ev.bytes ?? Buffer.from(ev.text, 'utf8');
  return {
    token: tokenString(own),
    logprob: ev.logprob ?? 0,
    bytes: Array.from(own),
    top_logprobs: (ev.topLogprobs ?? []).map((t) => ({ token: tokenString(t.bytes), logprob: t.logprob, bytes: Array.from(t.bytes) })),
  };
}

/** Logprob entries against the generated text: each entry's token starts at some character of it,
 *  and an entry is released once the stop matcher has let that character out. */
class LogprobTrack {
  /** Every entry kept so far, in token order. */
  readonly kept: LogprobEntry[] = [];
  private readonly starts: number[] = [];
  /** kept[sent..] are not on a text event yet. */
  private sent = 0;
  private generated = 0;
  private released = 0;

  add(entry: LogprobEntry, textLength: number): void {
    this.kept.push(entry);
    this.starts.push(this.generated);
    this.generated += textLength;
  }

  release(chars: number): void {
    this.released += chars;
  }

  /** A stop sequence matched: the tokens that start inside it (or after it) produced no text. */
  dropUnreleased(): void {
    let n = this.kept.length;
    while (n > this.sent && this.starts[n - 1]! >= this.released) n--;
    this.kept.length = this.starts.length = n;
  }

  /** Entries whose token's first character is out, not sent before. An empty token text (part of
   *  a character) goes with the character it starts. */
  takeReleased(): LogprobEntry[] {
    let end = this.sent;
    while (end < this.kept.length && this.starts[end]! < this.released) end++;
    const out = this.kept.slice(this.sent, end);
    this.sent = end;
    return out;
  }

  /** Entries not sent yet, whatever is released (the end of the choice). */
  takeAll(): LogprobEntry[] {
    const out = this.kept.slice(this.sent);
    this.sent = this.kept.length;
    return out;
  }
}

export async function runChoice(model: LoadedModel, plan: ChatPlan, prompt: BuiltPrompt, opts: RunOptions): Promise<ChoiceResult> {
  if (plan.toolMode.kind === 'forced') return runForcedTool(model, plan, prompt, opts);
  return runFree(model, plan, prompt, opts);
}

/** opts.onPrefilled for a token event: the first event carries the cache count, and the choice's
 *  first generation is the one its result's cachedTokens comes from. */
function prefilledReporter(opts: RunOptions, promptTokens: number): (ev: TokenEvent) => void {
  let report = opts.onPrefilled;
  return (ev) => {
    if (!report || ev.cachedTokens === undefined) return;
    report(Math.min(ev.cachedTokens, promptTokens));
    report = undefined;
  };
}

function sampling(plan: ChatPlan, opts: RunOptions): ChatPlan['sampling'] {
  return opts.seed === undefined ? plan.sampling : { ...plan.sampling, seed: opts.seed };
}

function emptyResult(): ChoiceResult {
  return {
    text: '',
    thinking: '',
    toolCalls: [],
    finish: 'stop',
    stopSequence: null,
    forcedNamed: false,
    promptTokens: 0,
    cachedTokens: 0,
    completionTokens: 0,
    reasoningTokens: 0,
    logprobs: [],
  };
}

/** A token's text as the parser needs it: the engine's text, or a marker's when the token is a
 *  control token the engine renders as nothing (Mistral's [TOOL_CALLS], Llama's <|python_tag|>). */
function tokenText(ev: TokenEvent, format: ModelChatFormat): string {
  return ev.text !== '' ? ev.text : (format.markerText.get(ev.token) ?? '');
}

/** The output parser for the model's format. */
export function outputParser(plan: ChatPlan, prompt: BuiltPrompt): ChatOutputParser {
  const { format } = prompt.format;
  const tools = plan.toolMode.kind === 'auto' && !plan.grammar;
  // Reasoning is split out when the template is a reasoning one or the client asked for it.
  const thinking = (prompt.reasoningTemplate || plan.reasoningEffort !== undefined) && !plan.grammar;
  // Under a grammar the answer is the constrained text itself (the prompt opened the answer).
  if (format.reasoning === 'harmony' && !plan.grammar) {
    const openHeader = prompt.text === null ? prompt.openHeader : openHarmonyHeader(prompt.text);
    return new HarmonyParser({ tools, thinking, ...(openHeader !== undefined ? { openHeader } : {}) });
  }
  return new OutputParser({
    tools,
    thinking,
    startInThinking: prompt.thinkingOpen,
    calls: format.calls,
    toolNames: new Set(plan.tools.map((t) => t.name)),
  });
}

/** Free generation: text, optional reasoning, tool calls parsed in the model's format. */
async function runFree(model: LoadedModel, plan: ChatPlan, prompt: BuiltPrompt, opts: RunOptions): Promise<ChoiceResult> {
  const res = emptyResult();
  const stopper = new StopMatcher(plan.stop);
  const parser = outputParser(plan, prompt);
  // Our own stops (a stop sequence, the one tool call asked for) need a controller of their own,
  // fed by the client's signal too (one controller and a listener: AbortSignal.any costs ~20 µs).
  // Without them the client's signal goes to the engine as is.
  const ownStops = stopper.active || !plan.parallelToolCalls;
  const stopCtl = ownStops ? new AbortController() : null;
  const outer = opts.signal;
  const forwardAbort = (): void => stopCtl?.abort(outer?.reason);
  if (stopCtl && outer?.aborted) forwardAbort();
  else if (stopCtl) outer?.addEventListener('abort', forwardAbort, { once: true });
  const signal = stopCtl ? stopCtl.signal : outer;
  let matched: string | null = null;
  let oneCallDone = false;
  // Logprob entries follow the text the stop matcher lets out: streaming, an entry rides on the
  // first text event after its token's text was let out; tokens of a matched stop sequence have
  // none (as the text has none of them). Non-streaming, the kept entries end up in the result.
  const logprobs = new LogprobTrack();

  const feed = (events: OutputEvent[]): void => {
    for (const ev of events) {
      if (ev.type === 'text' || ev.type === 'thinking') {
        if (ev.type === 'text') res.text += ev.text;
        else res.thinking += ev.text;
        // Reasoning tokens' entries ride on the reasoning deltas, in token order with the rest.
        const out: Extract<ChoiceEvent, { type: 'text' | 'thinking' }> = { type: ev.type, text: ev.text };
        if (opts.onEvent) {
          const ready = logprobs.takeReleased();
          if (ready.length) out.logprobs = ready;
        }
        opts.onEvent?.(out);
      } else {
        if (!plan.parallelToolCalls && res.toolCalls.length > 0) continue;
        const index = res.toolCalls.length;
        const id = opts.newToolCallId();
        res.toolCalls.push({ id, name: ev.name, arguments: ev.arguments });
        opts.onEvent?.({ type: 'tool_start', index, id, name: ev.name });
        opts.onEvent?.({ type: 'tool_args', index, fragment: ev.arguments });
      }
    }
  };

  /** Generated text through the stop matcher into the parser; ends generation on a stop. */
  const onText = (text: string): void => {
    const r = stopper.push(text);
    logprobs.release(r.emit.length);
    if (r.matched !== null) logprobs.dropUnreleased();
    feed(parser.push(r.emit));
    if (r.matched !== null) {
      matched = r.matched;
      stopCtl?.abort();
    } else if (!plan.parallelToolCalls && res.toolCalls.length > 0 && !oneCallDone) {
      // One call was asked for and it is complete: nothing after it will be used.
      oneCallDone = true;
      stopCtl?.abort();
    }
  };

  const reportPrefilled = prefilledReporter(opts, prompt.tokens.length);
  // The engine leaves the request's intake by the signal it gets; ours, when we made one, is not
  // the one the HTTP layer entered it by (src/intake.ts).
  if (stopCtl) leaveIntake(outer);
  let result: GenerateResult;
  try {
    // Harmony's <|end|> closes a message, not the turn: the engine does not end generation there
    // when the vocabulary has <|return|> and <|call|> (native/model/model_loader.cc).
    result = await model.generate(
      {
        prompt: prompt.tokens,
        maxTokens: opts.maxTokens,
        sampling: sampling(plan, opts),
        ...(plan.grammar ? { grammar: plan.grammar } : {}),
        ...(plan.logprobs ? { topLogprobs: plan.topLogprobs } : {}),
        ...(opts.priority ? { priority: opts.priority } : {}),
        ...(signal ? { signal } : {}),
      },
      (ev) => {
        if (matched !== null) return;
        reportPrefilled(ev);
        res.completionTokens++;
        if (parser.inThinking) res.reasoningTokens++;
        const text = tokenText(ev, prompt.format);
        if (plan.logprobs) logprobs.add(logprobEntry(ev), text.length);
        onText(text);
      },
    );
  } catch (err) {
    throw schemaError(err, plan.grammarParam ?? 'response_format');
  } finally {
    if (stopCtl) outer?.removeEventListener('abort', forwardAbort);
  }
  // A character the last tokens left incomplete (U+FFFD, as decoding the whole output gives).
  if (matched === null && result.tailText) onText(result.tailText);
  if (matched === null) {
    const rest = stopper.flush();
    logprobs.release(rest.length);
    feed(parser.push(rest));
  }
  feed(parser.finish());
  res.logprobs = opts.onEvent ? logprobs.takeAll() : logprobs.kept;
  // The prompt as we built it (what count_tokens reports), whatever the engine counted.
  res.promptTokens = prompt.tokens.length;
  res.cachedTokens = Math.min(result.cachedTokens, res.promptTokens);
  if (matched !== null) {
    res.finish = 'stop_sequence';
    res.stopSequence = matched;
  } else if (oneCallDone) {
    res.finish = 'tool_calls';
  } else if (result.finishReason === 'length') {
    res.finish = 'length';
  } else if (result.finishReason === 'cancelled') {
    res.finish = 'cancelled';
  } else {
    res.finish = res.toolCalls.length > 0 ? 'tool_calls' : 'stop';
  }
  return res;
}

/** The engine reports a JSON schema it cannot compile as 'grammar_rejected'; the client should see
 *  the field that carried the schema. */
function schemaError(err: unknown, param: string): unknown {
  if (!(err instanceof EngineError) || err.kind !== 'grammar_rejected') return err;
  return apiError('json_schema_unusable', { field: param, reason: err.message }, param);
}

/** One generation with no streaming of its own (choosing a tool's name, a call's arguments, whether
 *  another call follows); `observe` sees every token event, `onText` each non-empty piece. No
 *  grammar: free text under the request's sampling. */
async function generateText(
  model: LoadedModel,
  tokens: Uint32Array,
  plan: ChatPlan,
  format: ModelChatFormat,
  opts: RunOptions,
  maxTokens: number,
  grammar: ChatPlan['grammar'],
  observe: (ev: TokenEvent) => void,
  onText?: (t: string) => void,
): Promise<{ text: string; result: GenerateResult; tokens: number }> {
  let text = '';
  let n = 0;
  const onToken = (ev: TokenEvent): void => {
    observe(ev);
    n++;
    const t = tokenText(ev, format);
    text += t;
    if (t) onText?.(t);
  };
  let result: GenerateResult;
  try {
    result = await model.generate(
      {
        prompt: tokens,
        maxTokens,
        sampling: sampling(plan, opts),
        ...(grammar ? { grammar } : {}),
        ...(opts.priority ? { priority: opts.priority } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
      onToken,
    );
  } catch (err) {
    // The grammar is a tool's parameters schema (or the enum of tool names, always valid).
    throw schemaError(err, 'tools');
  }
  return { text, result, tokens: n };
}

const JSON_OBJECT: GrammarSpec = { kind: 'json_object' };

/** The grammar of a forced call's arguments: the tool's parameters schema (any object without one). */
function toolGrammar(tool: ToolSpec): GrammarSpec {
  return tool.parameters ? { kind: 'json_schema', schema: grammarSchema(tool.parameters, 'tools') } : JSON_OBJECT;
}

/** The most calls one forced tool choice makes (parallel tool calls; each further one is the
 *  model's own choice, below). */
export const MAX_FORCED_CALLS = 16;

/** Forced tool choice: one call, then, where parallel calls are allowed, the choice did not name
 *  the tool and the format has a way to write several, as many more as the model asks for: after
 *  each call a free generation of two tokens shows whether it opens another call (the format's
 *  marker) or ends the turn. */
async function runForcedTool(model: LoadedModel, plan: ChatPlan, prompt: BuiltPrompt, opts: RunOptions): Promise<ChoiceResult> {
  const res = emptyResult();
  if (plan.toolMode.kind !== 'forced') throw new Error('runForcedTool: tool mode is not forced');
  res.forcedNamed = plan.toolMode.named;
  res.promptTokens = prompt.tokens.length;
  const syntax = prompt.format.format.forced;
  const parallel = plan.parallelToolCalls && !plan.toolMode.named && syntax.next !== null;
  // Every candidate's schema is compiled before the first token, so that one the engine refuses
  // is a plain 400 whichever tool the model would pick (not a mid-stream error, nor a 200 when it
  // happens to pick another).
  const candidates = plan.tools.filter((t) => plan.toolMode.kind === 'forced' && plan.toolMode.names.includes(t.name));
  await Promise.all(candidates.map((t) => model.checkGrammar(toolGrammar(t)))).catch((err: unknown) => Promise.reject(schemaError(err, 'tools')));
  // A prompt built off the loop keeps its text for a forced call (openai-chat-off-loop.ts).
  if (prompt.text === null) throw new Error('a forced tool call needs the prompt text');
  // A prompt that left reasoning open gets it closed: the call comes first.
  let text = prompt.text + answerPrefix(prompt.format.format, prompt.thinkingOpen, true);
  let budget = opts.maxTokens;
  for (let index = 0; ; index++) {
    const call = await forcedCall(model, plan, prompt.format, text, index, budget, opts, res);
    budget -= call.tokens;
    if (call.finish !== 'tool_calls') {
      res.finish = call.finish;
      return res;
    }
    if (!parallel || !syntax.next || index + 1 >= MAX_FORCED_CALLS || budget <= 0) break;
    text += call.text;
    const next = await generateText(model, await tokenizePrompt(model, text), plan, prompt.format, opts, Math.min(2, budget), undefined, () => {});
    res.completionTokens += next.tokens;
    budget -= next.tokens;
    if (next.result.finishReason === 'cancelled') {
      res.finish = 'cancelled';
      return res;
    }
    const another = next.text.trimStart().startsWith(syntax.next.marker);
    // Cut off before the model could say (only whitespace so far), or it opened a call there is no
    // budget left to make: the turn ends for length, as a free generation cut there would.
    const undecided = !another && next.result.finishReason === 'length' && next.text.trim() === '';
    if ((another || undecided) && budget <= 0) {
      res.finish = 'length';
      return res;
    }
    if (!another) break;
    text += syntax.next.join;
  }
  res.finish = 'tool_calls';
  return res;
}

/** One forced call at `text` (the prompt, and the calls before this one): the format's opening of
 *  a call up to the tool's name (e.g. `<tool_call>\n{"name": "get_weather", "arguments": `) is a
 *  prefill we supply, then the arguments are generated under the tool's parameters schema, so they
 *  always parse (unless the budget cuts them off, which finish 'length' reports). With several
 *  candidate tools the name is chosen first by a generation constrained to the enum of names (as a
 *  JSON string, written bare where the format writes names bare). Adds the call and its tokens to
 *  `res`; `text` is the call as the conversation continues after it. */
async function forcedCall(
  model: LoadedModel,
  plan: ChatPlan,
  format: ModelChatFormat,
  text: string,
  index: number,
  budget: number,
  opts: RunOptions,
  res: ChoiceResult,
): Promise<{ finish: ChoiceFinish; tokens: number; text: string }> {
  if (plan.toolMode.kind !== 'forced') throw new Error('forcedCall: tool mode is not forced');
  const { names } = plan.toolMode;
  const syntax = format.format.forced;
  // The first generation of the choice reports the prompt tokens the cache served.
  const reportPrefilled = index === 0 ? prefilledReporter(opts, res.promptTokens) : (): void => {};
  let used = 0;
  let name = names[0];
  if (names.length > 1) {
    const pick = await generateText(
      model,
      await tokenizePrompt(model, text + syntax.beforeName(index)),
      plan,
      format,
      opts,
      budget,
      { kind: 'json_schema', schema: { type: 'string', enum: names } },
      reportPrefilled,
    );
    res.completionTokens += pick.tokens;
    if (index === 0) res.cachedTokens = Math.min(pick.result.cachedTokens, res.promptTokens);
    used += pick.tokens;
    let picked: unknown;
    try {
      picked = JSON.parse(pick.text.trim());
    } catch {
      picked = undefined;
    }
    if (pick.result.finishReason === 'cancelled') return { finish: 'cancelled', tokens: used, text: '' };
    if (typeof picked !== 'string' || !names.includes(picked) || budget - used <= 0) return { finish: 'length', tokens: used, text: '' };
    name = picked;
  }
  if (name === undefined) throw new Error('forcedCall: no tool to call');
  const tool = plan.tools.find((t) => t.name === name);
  const grammar = tool ? toolGrammar(tool) : JSON_OBJECT;
  const id = opts.newToolCallId();
  // The call opens with the arguments' first token (after the cache count is reported), or at the end.
  let opened = false;
  const open = (): void => {
    if (opened) return;
    opened = true;
    opts.onEvent?.({ type: 'tool_start', index, id, name });
  };
  const prefix = syntax.beforeName(index) + syntax.name(name) + syntax.afterName;
  let started = false;
  const args = await generateText(
    model,
    await tokenizePrompt(model, text + prefix),
    plan,
    format,
    opts,
    budget - used,
    grammar,
    (ev) => {
      reportPrefilled(ev);
      open();
    },
    (t) => {
      // Leading whitespace the grammar allows is dropped: partial-JSON parsers in the SDKs
      // reject a whitespace-only buffer, and JSON does not need it.
      const fragment = started ? t : t.replace(/^\s+/, '');
      if (!fragment) return;
      started = true;
      opts.onEvent?.({ type: 'tool_args', index, fragment });
    },
  );
  open();
  res.completionTokens += args.tokens;
  used += args.tokens;
  if (index === 0 && names.length === 1) res.cachedTokens = Math.min(args.result.cachedTokens, res.promptTokens);
  const argsText = args.text.replace(/^\s+/, '');
  res.toolCalls.push({ id, name, arguments: argsText });
  const fr = args.result.finishReason;
  const finish: ChoiceFinish = fr === 'length' ? 'length' : fr === 'cancelled' ? 'cancelled' : 'tool_calls';
  return { finish, tokens: used, text: `${prefix}${argsText}${syntax.afterArguments}` };
}
