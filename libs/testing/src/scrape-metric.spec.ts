import { describe, expect, it } from '@jest/globals';
import { sumMetric } from './scrape-metric.js';

const text = `# HELP inbox_duplicates_total Redelivered messages skipped
# TYPE inbox_duplicates_total counter
inbox_duplicates_total{consumer="inventory.order-events",service="inventory"} 2
inbox_duplicates_total{consumer="other",service="inventory"} 5
inbox_dead_lettered_total{consumer="inventory.order-events",reason="NOT_JSON",service="inventory"} 1
inbox_dead_lettered_total{consumer="inventory.order-events",reason="HANDLER_FAILED",service="inventory"} 3
loyalty_commands_pending{service="inventory"} 0
`;

describe('sumMetric', () => {
  it('when labels select one series, then its value is returned', () => {
    expect(sumMetric(text, 'inbox_duplicates_total', { consumer: 'inventory.order-events' })).toBe(2);
  });

  it('when labels select several series, then their values are summed', () => {
    expect(sumMetric(text, 'inbox_dead_lettered_total', { consumer: 'inventory.order-events' })).toBe(4);
    expect(sumMetric(text, 'inbox_duplicates_total')).toBe(7);
  });

  it('when no series matches, then the value is 0', () => {
    expect(sumMetric(text, 'inbox_duplicates_total', { consumer: 'nobody' })).toBe(0);
    expect(sumMetric(text, 'inbox_processed_total')).toBe(0);
  });

  it('when a name is a prefix of another metric, then only the exact name counts', () => {
    expect(sumMetric(text, 'inbox_dead_lettered')).toBe(0);
  });
});
