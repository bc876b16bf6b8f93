// Per-token CPU of the chat pipeline on the event loop, without sockets: stop matching, output
// parsing and the wire chunk for one token (OpenAI chunk JSON / Anthropic text_delta event).
//
//   node dist/bench/chat/pipeline-bench.js
import { Bench } from 'tinybench';
import { OpenAIChunker } from '../../src/chat/openai-response.js';
import { OutputParser } from '../../src/chat/output-parser.js';
import { StopMatcher } from '../../src/chat/stop-matcher.js';
import { BlockBuilder } from '../../src/chat/anthropic-response.js';
import { formatSseEvent } from '../../src/http/sse-writer.js';

const TOKENS = [' The', ' sea', ' is', ' calm', ',', ' and', ' the', ' wind', ' rests', '.'];
let sink = 0;
let i = 0;
const next = (): string => TOKENS[i++ % TOKENS.length]!;

const chunker = new OpenAIChunker({ id: 'chatcmpl-abcdefghijklmnopqrstuvwx', created: 1_700_000_000, model: 'builtin', logprobs: false, legacyFunctions: false }, true);
const parser = new OutputParser({ tools: true, thinking: true });
const stops = new StopMatcher(['\n\nUser:', '###']);
const plainParser = new OutputParser({ tools: false, thinking: false });
const noStops = new StopMatcher([]);
const blocks = new BlockBuilder((name, data) => (sink += formatSseEvent(data, name).length));

const bench = new Bench({ time: 500 });
bench
  .add('parse: no stops, no markers', () => {
    for (const e of plainParser.push(noStops.push(next()).emit)) sink += e.type.length;
  })
  .add('parse: 2 stop strings, tool + think markers', () => {
    for (const e of parser.push(stops.push(next()).emit)) sink += e.type.length;
  })
  .add('openai chunk → SSE text', () => {
    sink += formatSseEvent(chunker.event(0, { type: 'text', text: next() })).length;
  })
  .add('anthropic text_delta → SSE text', () => {
    blocks.onEvent({ type: 'text', text: next() });
  });

await bench.run();
console.log('| per token | median µs | ops/s |');
console.log('|---|---|---|');
for (const t of bench.tasks) {
  const r = t.result as { latency?: { p50?: number }; throughput?: { mean?: number } } | undefined;
  console.log(`| ${t.name} | ${((r?.latency?.p50 ?? NaN) * 1000).toFixed(2)} | ${Math.round(r?.throughput?.mean ?? NaN)} |`);
}
if (sink < 0) console.log(sink);
