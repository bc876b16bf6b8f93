// A real `svc serve` in its own process for the HTTP benchmarks, on a free loopback port.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../src/bench/svc-process.js';
import { PACKAGE_ROOT } from '../../src/paths.js';

export interface ServeProcess {
  proc: ChildProcess;
  port: number;
  url: string;
}

/** Spawns `svc serve --port <free port> ...args` (stdout dropped, stderr shown) and resolves once
 *  GET /ready answers 200; throws if the server exits first. Polling /ready rather than reading
 *  the `listening` log line lets the benchmarks run the server at --log-level warn. */
/** ownSession: the server runs in a session of its own (setsid), hence, where the kernel groups
 *  scheduling by session (autogroup), in a scheduling group of its own as a service in its own
 *  cgroup would be: thread priorities inside the server (--engine-nice) then weigh against the
 *  server's own threads only, not against the benchmark's clients. */
/** root: another checkout's package root (built), to run that build's server (before/after runs). */
export async function startServe(args: string[], env: NodeJS.ProcessEnv = process.env, opts: { ownSession?: boolean; root?: string } = {}): Promise<ServeProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, [join(opts.root ?? PACKAGE_ROOT, 'bin', 'svc.mjs'), 'serve', '--port', String(port), ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
    detached: opts.ownSession === true,
  });
  for (;;) {
    if (await fetch(`${url}/ready`).then((r) => r.status === 200, () => false)) break;
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode})`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { proc, port, url };
}
