// The prediction service's three roles as real processes (standalone, prefiller, decoder pointed
// at the prefiller), the recorded sessions they are fed, and the two HTTP calls the role tests make.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getTestModel } from '../helpers/models.js';
import { freePort, startSvc, type SvcProcess } from '../../src/bench/svc-process.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/rrweb');
/** Real rrweb recordings, one array of NDJSON lines each. */
export const recordings = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.ndjson'))
  .map((f) => readFileSync(join(FIXTURES, f), 'utf8').trim().split('\n'));

export async function predict(url: string, body: Record<string, unknown>): Promise<{ status: number; dropped: number; json: Record<string, any> }> {
  const res = await fetch(`${url}/v1/predict`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, dropped: Number(res.headers.get('x-prompt-events-dropped')), json: (await res.json()) as Record<string, any> };
}

export async function health(url: string): Promise<Record<string, any>> {
  return (await (await fetch(`${url}/health`)).json()) as Record<string, any>;
}

export interface RoleProcesses {
  standalone: SvcProcess;
  prefiller: SvcProcess;
  decoder: SvcProcess;
  prefillerPort: number;
  /** Starts another `svc predict` of `role` on the same model (0: any free port); stopAll() ends it too. */
  start(role: string, port: number, extra?: string[]): Promise<SvcProcess>;
  stopAll(): Promise<void>;
}

export async function startRoles(): Promise<RoleProcesses> {
  const model = await getTestModel({ ctx: 32768 });
  const procs: SvcProcess[] = [];
  const start = async (role: string, port: number, extra: string[] = []) => {
    const p = await startSvc(['predict', '--role', role, '--port', String(port), '--model', model, '--threads', '1', '--data-dir', mkdtempSync(join(tmpdir(), `svc-${role}-`)), ...extra]);
    procs.push(p);
    return p;
  };
  const prefillerPort = await freePort();
  const [standalone, prefiller] = await Promise.all([start('standalone', 0), start('prefiller', prefillerPort)]);
  const decoder = await start('decoder', 0, ['--prefiller', `http://127.0.0.1:${prefillerPort}`]);
  return { standalone, prefiller, decoder, prefillerPort, start, stopAll: async () => void (await Promise.all(procs.map((p) => p.stop('SIGKILL')))) };
}
