// A raw HTTP/1.1 client for streamed chat completions over one TCP socket each, for load tests
// and bench/http: thousands of them cost little, and each reads the way its mode says (all at
// once, one socket read per interval, or hanging up after a few events), which fetch cannot do.
import net from 'node:net';

export type StreamMode = 'normal' | 'slow' | 'disconnect';

export interface StreamOptions {
  port: number;
  apiKey: string;
  body: object;
  mode: StreamMode;
  /** slow: one socket read per this many ms (default 1000). */
  readEveryMs?: number;
  /** disconnect: hang up after this many `data:` events (default 3). */
  disconnectAfter?: number;
  /** Called at every `data:` event as it arrives (rates over a time window). */
  onEvent?: () => void;
}

export interface StreamOutcome {
  mode: StreamMode;
  /** HTTP status, 0 when none arrived. */
  status: number;
  /** `data:` lines received. */
  events: number;
  /** Saw `data: [DONE]`. */
  done: boolean;
  /** The last finish_reason the stream named. */
  finishReason: string | null;
  /** We hung up (disconnect mode). */
  hungUp: boolean;
  /** The socket failed (reset, refused) before the stream ended. */
  error: string | null;
}

export function runStream(o: StreamOptions): Promise<StreamOutcome> {
  const payload = JSON.stringify(o.body);
  const out: StreamOutcome = { mode: o.mode, status: 0, events: 0, done: false, finishReason: null, hungUp: false, error: null };
  return new Promise((resolve) => {
    const socket = net.connect(o.port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | null = null;
    const finish = (): void => {
      if (timer) clearInterval(timer);
      timer = null;
      resolve(out);
    };
    socket.setNoDelay(true);
    socket.on('connect', () => {
      socket.write(
        `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${o.apiKey}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
      );
      if (o.mode === 'slow') {
        socket.pause();
        // One read of whatever the kernel holds per interval (the data handler pauses again).
        timer = setInterval(() => socket.resume(), o.readEveryMs ?? 1000);
      }
    });
    socket.on('data', (chunk: Buffer) => {
      if (o.mode === 'slow') socket.pause();
      text += chunk.toString('latin1');
      if (out.status === 0) {
        const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
        if (m) out.status = Number(m[1]);
      }
      // Count complete lines only; keep the unfinished tail.
      const cut = text.lastIndexOf('\n');
      if (cut < 0) return;
      for (const line of text.slice(0, cut).split('\n')) {
        if (!line.startsWith('data: ')) continue;
        out.events++;
        o.onEvent?.();
        if (line.startsWith('data: [DONE]')) out.done = true;
        else {
          const f = /"finish_reason":"([a-z_]+)"/.exec(line);
          if (f) out.finishReason = f[1]!;
        }
      }
      text = text.slice(cut + 1);
      if (o.mode === 'disconnect' && !out.hungUp && out.events >= (o.disconnectAfter ?? 3)) {
        out.hungUp = true;
        socket.destroy();
        finish();
      }
    });
    socket.on('error', (e) => {
      if (!out.hungUp) out.error = e.message;
    });
    socket.on('close', finish);
  });
}
