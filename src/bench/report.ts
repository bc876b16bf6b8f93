// Renders benchmark results: a markdown table for people and terminals, and an SVG chart
// (latency percentiles and throughput per run) that needs nothing but a browser to view.
import type { ServeResult } from './serve-load.js';

const fmt = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : '—');

export function loadLabel(r: ServeResult): string {
  return r.load.kind === 'concurrency' ? `c=${r.load.concurrency}` : `rate=${r.load.ratePerSecond}/s`;
}

export function markdownTable(results: ServeResult[]): string {
  const head = '| run | load | ok/sent | req/s | out tok/s | TTFT p50 | TTFT p99 | ITL p50 | ITL p99 | TPOT p50 | E2E p50 | E2E p99 | cached |';
  const sep = '|---|---|---|---|---|---|---|---|---|---|---|---|---|';
  const rows = results.map((r) => `| ${r.label} | ${loadLabel(r)} | ${r.requests.completed}/${r.requests.sent} | ${fmt(r.throughput.requestsPerS, 2)} | ${fmt(r.throughput.outputTokensPerS)} | ${fmt(r.ttftMs.p50)} | ${fmt(r.ttftMs.p99)} | ${fmt(r.itlMs.p50, 2)} | ${fmt(r.itlMs.p99, 2)} | ${fmt(r.tpotMs.p50, 2)} | ${fmt(r.e2eMs.p50)} | ${fmt(r.e2eMs.p99)} | ${r.cachedTokenShare === null ? '—' : `${(r.cachedTokenShare * 100).toFixed(0)}%`} |`);
  const errors = results.flatMap((r) => Object.entries(r.requests.errors).map(([e, n]) => `- ${r.label} ${loadLabel(r)}: ${n} × ${e}`));
  return [head, sep, ...rows, '', 'Latencies in ms. TTFT: time to first token; ITL: gap between output chunks; TPOT: (E2E − TTFT) ÷ (tokens − 1).', ...(errors.length ? ['', 'Errors:', ...errors] : [])].join('\n');
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] as string);
}

interface Panel {
  title: string;
  unit: string;
  series: Array<{ name: string; value: (r: ServeResult) => number }>;
}

const PANELS: Panel[] = [
  { title: 'Time to first token', unit: 'ms', series: [{ name: 'p50', value: (r) => r.ttftMs.p50 }, { name: 'p90', value: (r) => r.ttftMs.p90 }, { name: 'p99', value: (r) => r.ttftMs.p99 }] },
  { title: 'Inter-token latency', unit: 'ms', series: [{ name: 'p50', value: (r) => r.itlMs.p50 }, { name: 'p90', value: (r) => r.itlMs.p90 }, { name: 'p99', value: (r) => r.itlMs.p99 }] },
  { title: 'End-to-end latency', unit: 'ms', series: [{ name: 'p50', value: (r) => r.e2eMs.p50 }, { name: 'p90', value: (r) => r.e2eMs.p90 }, { name: 'p99', value: (r) => r.e2eMs.p99 }] },
  { title: 'Output throughput', unit: 'tok/s', series: [{ name: 'tok/s', value: (r) => r.throughput.outputTokensPerS }] },
];

const COLORS = ['#4c78a8', '#f58518', '#e45756'];

/** Grouped bars: one group per run (label + load), one bar per percentile; one panel per metric. */
export function svgChart(results: ServeResult[]): string {
  const panelW = 460;
  const panelH = 260;
  const margin = { top: 40, left: 60, bottom: 70, right: 20 };
  const width = panelW * 2;
  const height = panelH * 2 + 30;
  const parts: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`, `<rect width="100%" height="100%" fill="white"/>`];
  PANELS.forEach((panel, pi) => {
    const ox = (pi % 2) * panelW;
    const oy = 30 + Math.floor(pi / 2) * panelH;
    const plotW = panelW - margin.left - margin.right;
    const plotH = panelH - margin.top - margin.bottom;
    const values = results.flatMap((r) => panel.series.map((s) => s.value(r))).filter(Number.isFinite);
    const max = Math.max(1e-9, ...values) * 1.1;
    parts.push(`<text x="${ox + panelW / 2}" y="${oy + 18}" text-anchor="middle" font-size="13" font-weight="bold">${escapeXml(panel.title)} (${panel.unit})</text>`);
    const x0 = ox + margin.left;
    const y0 = oy + margin.top + plotH;
    parts.push(`<line x1="${x0}" y1="${y0}" x2="${x0 + plotW}" y2="${y0}" stroke="#333"/><line x1="${x0}" y1="${y0}" x2="${x0}" y2="${y0 - plotH}" stroke="#333"/>`);
    for (let t = 0; t <= 4; t++) {
      const v = (max * t) / 4;
      const y = y0 - (plotH * t) / 4;
      parts.push(`<line x1="${x0 - 3}" y1="${y}" x2="${x0 + plotW}" y2="${y}" stroke="#ddd"/><text x="${x0 - 5}" y="${y + 4}" text-anchor="end">${fmt(v, v < 10 ? 2 : 0)}</text>`);
    }
    const groupW = plotW / Math.max(1, results.length);
    const barW = Math.max(2, (groupW * 0.8) / panel.series.length);
    results.forEach((r, ri) => {
      const gx = x0 + ri * groupW + groupW * 0.1;
      panel.series.forEach((s, si) => {
        const v = s.value(r);
        const h = Number.isFinite(v) ? (plotH * v) / max : 0;
        parts.push(`<rect x="${gx + si * barW}" y="${y0 - h}" width="${barW - 1}" height="${h}" fill="${COLORS[si % COLORS.length]}"><title>${escapeXml(`${r.label} ${loadLabel(r)} ${s.name}: ${fmt(v, 2)} ${panel.unit}`)}</title></rect>`);
      });
      parts.push(`<text transform="translate(${gx + groupW * 0.4},${y0 + 12}) rotate(30)" font-size="10">${escapeXml(`${r.label} ${loadLabel(r)}`)}</text>`);
    });
    panel.series.forEach((s, si) => {
      parts.push(`<rect x="${ox + panelW - 70}" y="${oy + 28 + si * 13}" width="9" height="9" fill="${COLORS[si % COLORS.length]}"/><text x="${ox + panelW - 57}" y="${oy + 36 + si * 13}">${escapeXml(s.name)}</text>`);
    });
  });
  parts.push(`<text x="10" y="18" font-size="12">svc bench: ${escapeXml(results.map((r) => r.label).filter((v, i, a) => a.indexOf(v) === i).join(' vs '))}</text>`);
  parts.push('</svg>');
  return parts.join('\n');
}
