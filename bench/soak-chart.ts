// The soak over time as a hand-written SVG, one panel per figure (latency, memory, table rows),
// like the latency chart beside it. Pure, unit-tested in soak-chart.spec.ts.

export interface SoakPanel {
  title: string;
  unit: string;
  series: { label: string; values: readonly number[] }[];
}

const WIDTH = 760;
const PANEL_HEIGHT = 170;
const MARGIN = { left: 70, right: 190, top: 40, bottom: 40, gap: 30 };
const COLORS = ['#1864ab', '#c92a2a', '#2b8a3e', '#e67700', '#862e9c', '#0b7285', '#5c940d', '#a61e4d'];

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const round = (value: number) => Math.round(value * 10) / 10;

/** A standalone SVG document: `minutes[i]` is the time of every series' `values[i]`; NaN values are gaps. */
export function soakChartSvg(minutes: readonly number[], panels: readonly SoakPanel[], title: string): string {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = PANEL_HEIGHT - MARGIN.gap;
  const height = MARGIN.top + panels.length * PANEL_HEIGHT + MARGIN.bottom;
  const maxMinute = Math.max(1, ...minutes.filter(Number.isFinite));
  const x = (minute: number) => round(MARGIN.left + (minute / maxMinute) * plotW);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="14">${escapeXml(title)}</text>`,
  ];
  panels.forEach((panel, index) => {
    const top = MARGIN.top + index * PANEL_HEIGHT;
    const values = panel.series.flatMap((series) => series.values.filter(Number.isFinite));
    const max = Math.max(1, ...values) * 1.1;
    const y = (value: number) => round(top + plotH - (value / max) * plotH);
    parts.push(
      `<text x="${MARGIN.left}" y="${top - 6}" font-size="13">${escapeXml(`${panel.title} (${panel.unit})`)}</text>`,
      `<rect x="${MARGIN.left}" y="${top}" width="${plotW}" height="${plotH}" fill="none" stroke="#adb5bd"/>`,
      `<text x="${MARGIN.left - 6}" y="${top + 4}" text-anchor="end">${escapeXml(String(Math.round(max)))}</text>`,
      `<text x="${MARGIN.left - 6}" y="${top + plotH + 4}" text-anchor="end">0</text>`,
    );
    panel.series.forEach((series, seriesIndex) => {
      const color = COLORS[seriesIndex % COLORS.length];
      const points = series.values
        .map((value, i) => (Number.isFinite(value) && Number.isFinite(minutes[i]) ? `${x(minutes[i])},${y(value)}` : undefined))
        .filter((point): point is string => point !== undefined);
      if (points.length > 0) parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.join(' ')}"/>`);
      const legendY = top + 12 + seriesIndex * 16;
      parts.push(
        `<line x1="${WIDTH - MARGIN.right + 12}" y1="${legendY - 4}" x2="${WIDTH - MARGIN.right + 32}" y2="${legendY - 4}" stroke="${color}" stroke-width="2"/>`,
        `<text x="${WIDTH - MARGIN.right + 38}" y="${legendY}">${escapeXml(series.label)}</text>`,
      );
    });
  });
  const axisY = MARGIN.top + panels.length * PANEL_HEIGHT - MARGIN.gap + 18;
  parts.push(
    `<text x="${MARGIN.left}" y="${axisY}" text-anchor="middle">0</text>`,
    `<text x="${MARGIN.left + plotW}" y="${axisY}" text-anchor="middle">${escapeXml(String(round(maxMinute)))}</text>`,
    `<text x="${MARGIN.left + plotW / 2}" y="${axisY + 16}" text-anchor="middle">minutes into the soak</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
