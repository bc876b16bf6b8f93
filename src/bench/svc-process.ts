// Runs the real `svc` CLI (built into dist/) as a child process and waits until it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';

export interface SvcProcess {
  proc: ChildProcess;
  /** From the `listening` log line: the prediction service's URL, else the main API's. */
  url: string;
  mainUrl?: string;
  predictUrl?: string;
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startSvc(args: string[], opts: { timeoutMs?: number; env?: Record<string, string> } = {}): Promise<SvcProcess> {
  const proc = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin/svc.mjs'), ...args], { env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const urls = await new Promise<{ main_url?: string; predict_url?: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc ${args.join(' ')} did not listen in time:\n${logs.join('\n')}`)), opts.timeoutMs ?? 90_000);
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk.toString();
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        logs.push(line);
        try {
          const json = JSON.parse(line) as { msg?: string; predict_url?: string; main_url?: string };
          if (json.msg === 'listening' && (json.predict_url || json.main_url)) {
            clearTimeout(timer);
            resolve(json);
          }
        } catch {
          // not a log line
        }
      }
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`svc ${args.join(' ')} exited with ${code}:\n${logs.join('\n')}`));
    });
  });
  return {
    proc,
    url: (urls.predict_url ?? urls.main_url) as string,
    mainUrl: urls.main_url,
    predictUrl: urls.predict_url,
    logs,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      proc.kill(signal);
      return exited;
    },
  };
}

/** A loopback port free right now (for a process that must come back on the same port). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
