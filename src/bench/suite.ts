// Entry for the benchmarks that run inside this project (engine, micro, the standard suite).
export async function runExtraBench(sub: string, _argv: string[]): Promise<number> {
  console.error(`svc bench ${sub}: not available yet in this build`);
  return 2;
}
