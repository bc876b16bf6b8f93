// The requests of a validated input file, line by line, as the runner takes them back (to launch
// them, or to name the ones that never ran in the error file). Used in the input worker
// (validate-worker.ts) and, without it, on the loop (request-reader.ts).
import { isBlank, type InputLine } from './lines.js';
import { parseRequestLine, type BatchRequestLine } from './validate.js';

export interface ReadOptions {
  maxLineBytes: number;
  /** false: the body is left out (the error file needs only the custom_id), so less crosses back. */
  bodies: boolean;
}

export type ReadRequest = Omit<BatchRequestLine, 'body'> & { body: Record<string, unknown> | null };

/** Collects the requests of the lines fed to it until taken. Blank lines, lines over the limit
 *  and invalid lines (none, once the file passed validation; files are immutable) have none. */
export class RequestCollector {
  private requests: ReadRequest[] = [];

  constructor(private readonly o: ReadOptions) {}

  line(input: InputLine): void {
    if (input.tooLong || isBlank(input.text)) return;
    const r = parseRequestLine(input.text, input.line);
    if (r.ok) this.requests.push(this.o.bodies ? r.value : { ...r.value, body: null });
  }

  take(): ReadRequest[] {
    const taken = this.requests;
    this.requests = [];
    return taken;
  }
}
