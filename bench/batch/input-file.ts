// Batch input files for the loop-hold benches: request lines, and a file as the 256 KiB chunks
// FileStore.chunks() yields.
const CHUNK = 256 * 1024;

export function requestLine(i: number, content: string): string {
  return JSON.stringify({ custom_id: `r-${i}`, method: 'POST', url: '/v1/chat/completions', body: { model: 'builtin', max_tokens: 8, messages: [{ role: 'user', content }] } });
}

export function chunksOf(text: string): Buffer[] {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) out.push(Buffer.from(bytes.subarray(i, i + CHUNK)));
  return out;
}
