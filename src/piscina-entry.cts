// The one file every piscina pool starts (src/pool-entry.ts names it): CommonJS, so that piscina's
// require() of its task file loads only this, and the pool's ES module comes in through import().
// On Node 20 a require() of an ES module instantiates its graph synchronously, and a worker that
// is terminated in that step (a pool destroyed while its threads still load: a server stopped
// right after it started) ends the whole process with a V8 fatal error ("IsGraphAsync must be
// used on an instantiated module"). A terminated worker simply abandons an import().
import { workerData } from 'node:worker_threads';

type TaskModule = { default: (task: unknown) => unknown };

let loaded: Promise<TaskModule> | undefined;

function taskModule(): Promise<TaskModule> {
  return (loaded ??= import((workerData as { module: string }).module) as Promise<TaskModule>);
}

export default async function run(task: unknown): Promise<unknown> {
  return (await taskModule()).default(task);
}

/** A task that only proves the thread is up and its module loaded (piscina `name: 'ready'`). */
export async function ready(): Promise<true> {
  await taskModule();
  return true;
}
