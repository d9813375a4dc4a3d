/**
 * The value of one Prometheus metric at `GET <baseUrl>/metrics`, summed over every series whose
 * labels include `labels` (so `{ consumer: 'x' }` matches `{consumer="x",service="y"}`). 0 when no
 * series matches: a counter that was never incremented is not exported until it has a label set.
 */
export async function scrapeMetric(baseUrl: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const response = await fetch(new URL('/metrics', baseUrl), { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET ${baseUrl}/metrics answered ${response.status}`);
  return sumMetric(await response.text(), name, labels);
}

/** {@link scrapeMetric} on text already fetched; exported for its unit test. */
export function sumMetric(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const series: Record<string, string> = {};
    for (const [, label, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) series[label] = value;
    if (Object.entries(labels).every(([label, value]) => series[label] === value)) sum += Number(match[3]);
  }
  return sum;
}
