import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { CommandMetrics } from './command.metrics.js';
import type { CommandsOptions } from '../command.options.js';

const options = (table: string) => ({ table }) as CommandsOptions;
// Only the gauges' collect() queries the table; these tests never scrape, so no database is needed.
const noDatabase = {} as DataSource;

describe('CommandMetrics names', () => {
  it('when the table is plain, then every metric is prefixed with it (the names dashboards and alerts use)', async () => {
    const registry = new Registry();
    new CommandMetrics(registry, noDatabase, options('loyalty_commands'));
    expect(
      registry
        .getMetricsAsArray()
        .map((metric) => metric.name)
        .sort(),
    ).toEqual([
      'loyalty_commands_deleted_total',
      'loyalty_commands_done_total',
      'loyalty_commands_oldest_due_age_seconds',
      'loyalty_commands_parked',
      'loyalty_commands_parked_total',
      'loyalty_commands_pending',
      'loyalty_commands_retried_total',
      'loyalty_commands_stale_outcomes_total',
    ]);
  });

  it('when the table is schema-qualified, then the module still starts and the prefix has no dot', () => {
    const registry = new Registry();
    expect(() => new CommandMetrics(registry, noDatabase, options('partner.payment_commands'))).not.toThrow();
    expect(registry.getMetricsAsArray().map((metric) => metric.name)).toContain('partner_payment_commands_done_total');
  });
});
