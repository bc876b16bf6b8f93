// The requests of a validated input file, line by line, as the runner takes them back (to launch
// them, or to name the ones that never ran in the error file). Used in the input worker
// (validate-worker.ts) and, without it, on the loop (request-reader.ts).
import { isBlank, type InputLine } from './lines.js';
import { isUnparsedBody, type UnparsedBody } from './types.js';
import { parseRequestLine, type BatchRequestLine } from './validate.js';

export interface ReadOptions {
  maxLineBytes: number;
  /** false: the body is left out (the error file needs only the custom_id), so less crosses back. */
  bodies: boolean;
  /** Lines at least this long keep their body as the line's bytes (UnparsedBody); absent: none. */
  unparsedLineChars?: number;
}

export type ReadRequest = Omit<BatchRequestLine, 'body'> & { body: Record<string, unknown> | UnparsedBody | null };

/** The ArrayBuffers of the requests' unparsed bodies: moved, not cloned, when posted. */
export function bodyTransfers(requests: readonly ReadRequest[]): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const r of requests) if (isUnparsedBody(r.body)) out.push(r.body.line.buffer as ArrayBuffer);
  return out;
}

/** The line's UTF-8 bytes in an ArrayBuffer of their own (so it can be transferred). Decoding
 *  them gives `text` back exactly (the splitter's decode already replaced any invalid byte). */
function ownBytes(text: string): Uint8Array {
  const b = Buffer.from(text, 'utf8');
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? new Uint8Array(b.buffer) : new Uint8Array(b);
}

/** Collects the requests of the lines fed to it until taken. Blank lines, lines over the limit
 *  and invalid lines (none, once the file passed validation; files are immutable) have none. */
export class RequestCollector {
  private requests: ReadRequest[] = [];

  constructor(private readonly o: ReadOptions) {}

  line(input: InputLine): void {
    if (input.tooLong || isBlank(input.text)) return;
    const r = parseRequestLine(input.text, input.line);
    if (!r.ok) return;
    if (!this.o.bodies) this.requests.push({ ...r.value, body: null });
    else if (this.o.unparsedLineChars !== undefined && input.text.length >= this.o.unparsedLineChars) {
      const body: UnparsedBody = { unparsed: 'batch-line', line: ownBytes(input.text), model: r.value.body.model as string };
      this.requests.push({ ...r.value, body });
    } else this.requests.push(r.value);
  }

  take(): ReadRequest[] {
    const taken = this.requests;
    this.requests = [];
    return taken;
  }
}
