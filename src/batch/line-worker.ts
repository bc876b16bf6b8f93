// piscina worker for the batch runner (line-pool.ts): decodes and checks one long input line, so
// the JSON.parse of a line of up to maxLineBytes (8 MiB by default) runs off the event loop.
import { decodeLine, isBlank } from './lines.js';
import { parseRequestLine } from './validate.js';
import type { ParsedLine } from './line-pool.js';

export interface LineTask {
  line: number;
  bytes: Uint8Array;
}

export default function run(task: LineTask): ParsedLine {
  const text = decodeLine(task);
  return isBlank(text) ? { ok: false, blank: true } : parseRequestLine(text, task.line);
}
