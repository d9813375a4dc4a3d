import { describe, expect, it } from '@jest/globals';
import { soakChartSvg } from './soak-chart.js';

describe('soakChartSvg', () => {
  it('when drawn, then each panel has its title and one line per series, gaps left out', () => {
    const svg = soakChartSvg(
      [0.5, 1, 1.5],
      [
        { title: 'end-to-end p99', unit: 'ms', series: [{ label: 'p99', values: [40, Number.NaN, 60] }] },
        {
          title: 'dead tuples',
          unit: 'rows',
          series: [
            { label: 'orders.outbox_messages', values: [10, 20, 5] },
            { label: 'inventory.inbox_messages', values: [0, 0, 0] },
          ],
        },
      ],
      'Soak <test>',
    );
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('Soak &lt;test&gt;');
    expect(svg).toContain('end-to-end p99 (ms)');
    expect(svg.match(/<polyline /g)).toHaveLength(3);
    // The p99 line skips the NaN sample: two points, not three.
    expect(svg.match(/<polyline [^>]*points="([^"]*)"/)?.[1].split(' ')).toHaveLength(2);
    expect(svg).toContain('minutes into the soak');
  });
});
