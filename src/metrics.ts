// In-process metrics in the Prometheus text exposition format (version 0.0.4).
// Counters and histograms are keyed by label values; gauges are read when scraped.
// The HTTP layer records every request (route pattern, method, status, latency); other modules
// register their own series on the same registry through Services.metrics.

export type Labels = Record<string, string>;

export const DEFAULT_LATENCY_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(names: readonly string[], values: readonly string[], extra?: [string, string]): string {
  const parts = names.map((n, i) => `${n}="${escapeLabel(values[i] ?? '')}"`);
  if (extra) parts.push(`${extra[0]}="${escapeLabel(extra[1])}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

function formatNumber(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

interface Series {
  render(): string[];
}

export class Counter implements Series {
  private readonly values = new Map<string, { labels: string[]; value: number }>();
  constructor(readonly name: string, readonly help: string, readonly labelNames: readonly string[]) {}

  inc(labels: Labels = {}, by = 1): void {
    this.series(labels).value += by;
  }

  /** The cell for one label set; hot paths keep it and add to `.value` directly. */
  series(labels: Labels): { value: number } {
    const values = this.labelNames.map((n) => labels[n] ?? '');
    const key = values.join('\u0001');
    let cur = this.values.get(key);
    if (!cur) {
      cur = { labels: values, value: 0 };
      this.values.set(key, cur);
    }
    return cur;
  }

  get(labels: Labels = {}): number {
    return this.values.get(this.labelNames.map((n) => labels[n] ?? '').join('\u0001'))?.value ?? 0;
  }

  render(): string[] {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.values.values()) out.push(`${this.name}${labelText(this.labelNames, labels)} ${formatNumber(value)}`);
    return out;
  }
}

interface HistogramCell {
  labels: string[];
  counts: number[];
  sum: number;
  count: number;
}

export class Histogram implements Series {
  private readonly values = new Map<string, HistogramCell>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly buckets: readonly number[] = DEFAULT_LATENCY_BUCKETS_S,
  ) {}

  observe(labels: Labels, value: number): void {
    this.observeIn(this.series(labels), value);
  }

  /** The cell for one label set (hot paths keep it and call observeIn). */
  series(labels: Labels): HistogramCell {
    const values = this.labelNames.map((n) => labels[n] ?? '');
    const key = values.join('\u0001');
    let cur = this.values.get(key);
    if (!cur) {
      cur = { labels: values, counts: new Array<number>(this.buckets.length).fill(0), sum: 0, count: 0 };
      this.values.set(key, cur);
    }
    return cur;
  }

  observeIn(cell: HistogramCell, value: number): void {
    // Counts are stored per bucket and made cumulative when rendered.
    const b = this.buckets;
    let i = 0;
    while (i < b.length && value > b[i]!) i++;
    if (i < b.length) cell.counts[i] = (cell.counts[i] ?? 0) + 1;
    cell.sum += value;
    cell.count += 1;
  }

  render(): string[] {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { labels, counts, sum, count } of this.values.values()) {
      let cumulative = 0;
      this.buckets.forEach((b, i) => {
        cumulative += counts[i] ?? 0;
        out.push(`${this.name}_bucket${labelText(this.labelNames, labels, ['le', formatNumber(b)])} ${cumulative}`);
      });
      out.push(`${this.name}_bucket${labelText(this.labelNames, labels, ['le', '+Inf'])} ${count}`);
      out.push(`${this.name}_sum${labelText(this.labelNames, labels)} ${formatNumber(sum)}`);
      out.push(`${this.name}_count${labelText(this.labelNames, labels)} ${count}`);
    }
    return out;
  }
}

export interface GaugeSample {
  labels?: Labels;
  value: number;
}

/** A gauge, or a counter kept elsewhere (an engine's own totals): values read at scrape time. */
class ReadSeries implements Series {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly type: 'gauge' | 'counter',
    private readonly read: () => number | GaugeSample[],
  ) {}

  render(): string[] {
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
    let samples: GaugeSample[];
    try {
      const v = this.read();
      samples = typeof v === 'number' ? [{ value: v }] : v;
    } catch {
      return []; // a failing reader drops its gauge from this scrape rather than failing the scrape
    }
    for (const s of samples) {
      const names = Object.keys(s.labels ?? {});
      out.push(`${this.name}${labelText(names, names.map((n) => s.labels?.[n] ?? ''))} ${formatNumber(s.value)}`);
    }
    return out;
  }
}

/** One label set of a histogram kept elsewhere: upper bounds, per-bucket counts (not cumulative;
 *  one more than bounds, the last past the last bound) and the sum. */
export interface HistogramSample {
  labels: Labels;
  bounds: readonly number[];
  counts: readonly number[];
  sum: number;
}

class ReadHistogram implements Series {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => HistogramSample[],
  ) {}

  render(): string[] {
    let samples: HistogramSample[];
    try {
      samples = this.read();
    } catch {
      return [];
    }
    const out = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of samples) {
      const names = Object.keys(s.labels);
      const values = names.map((n) => s.labels[n] ?? '');
      let cumulative = 0;
      s.bounds.forEach((b, i) => {
        cumulative += s.counts[i] ?? 0;
        out.push(`${this.name}_bucket${labelText(names, values, ['le', formatNumber(b)])} ${cumulative}`);
      });
      cumulative += s.counts[s.bounds.length] ?? 0;
      out.push(`${this.name}_bucket${labelText(names, values, ['le', '+Inf'])} ${cumulative}`);
      out.push(`${this.name}_sum${labelText(names, values)} ${formatNumber(s.sum)}`);
      out.push(`${this.name}_count${labelText(names, values)} ${cumulative}`);
    }
    return out;
  }
}

export class Metrics {
  private readonly series = new Map<string, Series>();
  /** Requests by route pattern, method and status (unknown paths count as route "unmatched"). */
  readonly httpRequests: Counter;
  /** Request latency from the first byte of the request to the end of the response, seconds. */
  readonly httpLatency: Histogram;

  constructor() {
    this.httpRequests = this.counter('svc_http_requests_total', 'HTTP requests by server, route pattern, method and status.', [
      'server',
      'route',
      'method',
      'status',
    ]);
    this.httpLatency = this.histogram('svc_http_request_duration_seconds', 'HTTP request latency by server and route pattern, seconds.', [
      'server',
      'route',
    ]);
  }

  private add<T extends Series>(name: string, s: T): T {
    if (this.series.has(name)) throw new Error(`metric ${name} registered twice`);
    this.series.set(name, s);
    return s;
  }

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.add(name, new Counter(name, help, labelNames));
  }

  histogram(name: string, help: string, labelNames: readonly string[] = [], buckets?: readonly number[]): Histogram {
    return this.add(name, new Histogram(name, help, labelNames, buckets));
  }

  /** A value read at scrape time (queue depth, KV usage, ...). */
  gauge(name: string, help: string, read: () => number | GaugeSample[]): void {
    this.add(name, new ReadSeries(name, help, 'gauge', read));
  }

  /** A counter whose totals live elsewhere (e.g. the engine's), read at scrape time. */
  counterFrom(name: string, help: string, read: () => number | GaugeSample[]): void {
    this.add(name, new ReadSeries(name, help, 'counter', read));
  }

  /** A histogram whose buckets live elsewhere (e.g. the engine's), read at scrape time. */
  histogramFrom(name: string, help: string, read: () => HistogramSample[]): void {
    this.add(name, new ReadHistogram(name, help, read));
  }

  private readonly requestCells = new Map<string, { count: { value: number }; latency: HistogramCell }>();

  /** Called once per HTTP request: the series cells are looked up once per (server, route, method, status). */
  recordRequest(server: string, route: string, method: string, status: number, seconds: number): void {
    const key = `${server} ${route} ${method} ${status}`;
    let c = this.requestCells.get(key);
    if (!c) {
      c = { count: this.httpRequests.series({ server, route, method, status: String(status) }), latency: this.httpLatency.series({ server, route }) };
      this.requestCells.set(key, c);
    }
    c.count.value += 1;
    this.httpLatency.observeIn(c.latency, seconds);
  }

  render(): string {
    const lines: string[] = [];
    for (const s of this.series.values()) lines.push(...s.render());
    return lines.join('\n') + '\n';
  }
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
