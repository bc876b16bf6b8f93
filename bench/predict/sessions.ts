// Long recorded sessions for the prediction tests and benchmarks, made from the real rrweb recordings in
// test/fixtures/rrweb: the first recording's meta event and full snapshot, then the incremental
// events of all recordings replayed in turn with timestamps that keep increasing, as a recorder
// running for minutes on one page would send them.
export function longSession(recordings: string[][], events: number, sessionId = 0): string[] {
  const first = recordings[0] as string[];
  const meta = JSON.parse(first[0] as string) as { data: Record<string, unknown>; timestamp: number };
  meta.data.href = `${String(meta.data.href)}?session=${sessionId}`;
  const out = [JSON.stringify(meta), first[1] as string];
  const incremental = recordings.flatMap((r) => r.slice(2));
  let ts = meta.timestamp;
  for (let i = 0; out.length < events; i++) {
    const e = JSON.parse(incremental[i % incremental.length] as string) as { timestamp: number };
    ts += 40 + (i % 7) * 13;
    e.timestamp = ts;
    out.push(JSON.stringify(e));
  }
  return out;
}
