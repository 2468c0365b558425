/**
 * @module domain/metricText: Prometheus text exposition for figures a part keeps in plain
 * numbers and maps (the gateway's, the delivery worker's), written out only when /metrics is
 * scraped (resources/system/metrics.ts `addSource`). Counting is a map write; no label object is
 * hashed on the hot path.
 */

/** Escapes a label value for the text format. */
export function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** Counts by one label set, each set written as `name="value",…` once. */
export class LabelledCounts {
  private readonly counts = new Map<string, number>();

  /** Adds `n` to the count of `labels` (its text, from {@link labelText}). */
  add(labels: string, n = 1): void {
    this.counts.set(labels, (this.counts.get(labels) ?? 0) + n);
  }

  /** The count of `labels`, 0 when never counted. */
  get(labels: string): number {
    return this.counts.get(labels) ?? 0;
  }

  entries(): IterableIterator<[string, number]> {
    return this.counts.entries();
  }
}

/** `{a="x",b="y"}`'s inside for the given labels, values escaped. */
export function labelText(labels: Readonly<Record<string, string | number>>): string {
  return Object.entries(labels)
    .map(([key, value]) => `${key}="${escapeLabel(String(value))}"`)
    .join(',');
}

/** The HELP and TYPE lines of a metric. */
function header(name: string, type: 'counter' | 'gauge' | 'histogram', help: string): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
}

/** A metric with one unlabelled value, or one value per label set. */
export function metricLines(
  name: string,
  meta: { type: 'counter' | 'gauge'; help: string },
  values: number | Iterable<[string, number]>,
): string[] {
  const lines = header(name, meta.type, meta.help);
  if (typeof values === 'number') {
    lines.push(`${name} ${values}`);
    return lines;
  }
  for (const [labels, value] of values) lines.push(`${name}{${labels}} ${value}`);
  return lines;
}

/** A histogram of observations (seconds, say) over fixed upper bounds. */
export class Histogram {
  /** Per bucket; cumulative counts are derived when written out. */
  private readonly buckets: number[];
  private readonly bounds: readonly number[];
  private sum = 0;
  private count = 0;

  constructor(bounds: readonly number[]) {
    this.bounds = bounds;
    this.buckets = bounds.map(() => 0);
  }

  observe(value: number): void {
    const bucket = this.bounds.findIndex((bound) => value <= bound);
    if (bucket !== -1) this.buckets[bucket] = (this.buckets[bucket] ?? 0) + 1;
    this.sum += value;
    this.count += 1;
  }

  /** The histogram's exposition lines, HELP and TYPE first. */
  lines(name: string, help: string): string[] {
    const lines = header(name, 'histogram', help);
    let cumulative = 0;
    this.bounds.forEach((bound, i) => {
      cumulative += this.buckets[i] ?? 0;
      lines.push(`${name}_bucket{le="${bound}"} ${cumulative}`);
    });
    lines.push(
      `${name}_bucket{le="+Inf"} ${this.count}`,
      `${name}_sum ${this.sum}`,
      `${name}_count ${this.count}`,
    );
    return lines;
  }
}
