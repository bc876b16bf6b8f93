// ctx.stream(): a response body written piece by piece (file downloads, exports), with the
// same backpressure rules as SSE: chunked encoding when the length is unknown, Content-Length
// and tryEnd when it is known.
import type { ByteStream } from './types.js';
import { ChunkedSink, FixedLengthSink, type Chunk, type StreamOwner } from './response-sink.js';

export class UwsByteStream implements ByteStream {
  private readonly sink: ChunkedSink | FixedLengthSink;

  constructor(owner: StreamOwner, contentLength?: number) {
    this.sink = contentLength === undefined ? new ChunkedSink(owner, null) : new FixedLengthSink(owner, contentLength);
  }

  get closed(): boolean {
    return this.sink.closed;
  }

  write(chunk: Chunk): Promise<void> {
    return this.sink.write(chunk);
  }

  end(chunk?: Chunk): void {
    this.sink.end(chunk);
  }
}
