// Latency (p50/p95/p99) against offered load, as a hand-written SVG the README can show. Pure,
// unit-tested in bench-results.spec.ts. The latency axis is logarithmic: a loop that keeps up
// answers in tens of milliseconds, one that does not in tens of seconds, and both must be readable.

export interface ChartPoint {
  offeredPerSec: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  backlogGrowing: boolean;
}

const WIDTH = 720;
const HEIGHT = 420;
const MARGIN = { left: 70, right: 150, top: 40, bottom: 55 };
const SERIES = [
  { key: 'p50Ms', label: 'p50', color: '#2b8a3e' },
  { key: 'p95Ms', label: 'p95', color: '#e67700' },
  { key: 'p99Ms', label: 'p99', color: '#c92a2a' },
] as const;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Powers of ten covering [min, max], at least two. */
function decades(min: number, max: number): number[] {
  const low = Math.floor(Math.log10(Math.max(1, min)));
  const high = Math.max(low + 1, Math.ceil(Math.log10(Math.max(1, max))));
  return Array.from({ length: high - low + 1 }, (_, index) => 10 ** (low + index));
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The chart as a standalone SVG document; `title` names the run (machine, date). */
export function latencyChartSvg(points: readonly ChartPoint[], title: string): string {
  const usable = [...points].filter((point) => Number.isFinite(point.p50Ms)).sort((a, b) => a.offeredPerSec - b.offeredPerSec);
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const latencies = usable.flatMap((point) => [point.p50Ms, point.p95Ms, point.p99Ms]).filter(Number.isFinite);
  const ticksY = decades(Math.min(...latencies, 10), Math.max(...latencies, 100));
  const [yLow, yHigh] = [ticksY[0], ticksY[ticksY.length - 1]];
  const xMax = Math.max(50, ...usable.map((point) => point.offeredPerSec)) * 1.1;
  const x = (rate: number) => MARGIN.left + (rate / xMax) * plotW;
  const y = (ms: number) =>
    MARGIN.top + plotH - ((Math.log10(Math.max(ms, yLow)) - Math.log10(yLow)) / (Math.log10(yHigh) - Math.log10(yLow))) * plotH;
  const stepX = xMax > 400 ? 100 : xMax > 200 ? 50 : 25;
  const ticksX = Array.from({ length: Math.floor(xMax / stepX) + 1 }, (_, index) => index * stepX);

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${MARGIN.left}" y="22" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (const tick of ticksY) {
    parts.push(
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}" stroke="#dee2e6"/>`,
    );
    parts.push(`<text x="${MARGIN.left - 8}" y="${(y(tick) + 4).toFixed(1)}" text-anchor="end">${formatMs(tick)}</text>`);
  }
  for (const tick of ticksX) {
    parts.push(
      `<line x1="${x(tick).toFixed(1)}" x2="${x(tick).toFixed(1)}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH + 5}" stroke="#495057"/>`,
    );
    parts.push(`<text x="${x(tick).toFixed(1)}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${tick}</text>`);
  }
  parts.push(
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#495057"/>`,
    `<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 12}" text-anchor="middle">offered load (orders/s, open model)</text>`,
    `<text transform="translate(16 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">scheduled send → RESERVED/REJECTED committed (log)</text>`,
  );
  SERIES.forEach((series, index) => {
    const coordinates = usable.map((point) => `${x(point.offeredPerSec).toFixed(1)},${y(point[series.key]).toFixed(1)}`);
    if (coordinates.length > 1)
      parts.push(`<polyline fill="none" stroke="${series.color}" stroke-width="2" points="${coordinates.join(' ')}"/>`);
    for (const point of usable) {
      // A hollow marker: the backlog grew at this rate, so its latencies only grow with the run's length.
      const fill = point.backlogGrowing ? '#ffffff' : series.color;
      parts.push(
        `<circle cx="${x(point.offeredPerSec).toFixed(1)}" cy="${y(point[series.key]).toFixed(1)}" r="4" fill="${fill}" stroke="${series.color}" stroke-width="2"/>`,
      );
    }
    const legendY = MARGIN.top + 10 + index * 20;
    parts.push(
      `<line x1="${WIDTH - MARGIN.right + 15}" x2="${WIDTH - MARGIN.right + 40}" y1="${legendY}" y2="${legendY}" stroke="${series.color}" stroke-width="2"/>`,
    );
    parts.push(`<text x="${WIDTH - MARGIN.right + 46}" y="${legendY + 4}">${series.label}</text>`);
  });
  const noteY = MARGIN.top + 80;
  parts.push(`<circle cx="${WIDTH - MARGIN.right + 27}" cy="${noteY}" r="4" fill="#ffffff" stroke="#495057" stroke-width="2"/>`);
  parts.push(`<text x="${WIDTH - MARGIN.right + 46}" y="${noteY + 4}">backlog grew</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
