import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { COMMANDS_OPTIONS, type CommandsOptions } from '../command.options.js';

/**
 * The parked gauge's query. Scraped every few seconds, so it must not read the table: the app's
 * migration gives it a partial index on parked rows (docs/commands.md), which holds only the few
 * rows a human has to look at, and the count is an index-only scan of those. Exported for the test that checks the plan.
 */
export const parkedCountQuery = (table: string) => `SELECT count(*)::int AS n FROM ${table} WHERE status = 'PARKED'`;

/**
 * The dispatcher's counters and the table's gauges, every name prefixed with the table
 * (`loyalty_commands_done_total`, ...): the dashboards and alert rules name them. A
 * schema-qualified table (`partner.payment_commands`) becomes `partner_payment_commands_...`:
 * Prometheus names allow no dot.
 */
@Injectable()
export class CommandMetrics {
  readonly done: Counter;
  readonly parked: Counter;
  readonly retried: Counter;
  readonly staleOutcomes: Counter;
  readonly deleted: Counter;

  constructor(
    @Inject(Registry) registry: Registry,
    @Inject(DataSource) dataSource: DataSource,
    @Inject(COMMANDS_OPTIONS) { table }: CommandsOptions,
  ) {
    const prefix = table.replace('.', '_');
    this.done = new Counter({ name: `${prefix}_done_total`, help: `Commands of ${table} acknowledged with 2xx`, registers: [registry] });
    this.parked = new Counter({
      name: `${prefix}_parked_total`,
      help: `Commands of ${table} parked after a 4xx: they need a human`,
      registers: [registry],
    });
    this.retried = new Counter({
      name: `${prefix}_retried_total`,
      help: `Calls of ${table} commands that timed out, failed or got 5xx, and were scheduled again`,
      registers: [registry],
    });
    this.staleOutcomes = new Counter({
      name: `${prefix}_stale_outcomes_total`,
      help: 'Answers not recorded because the command was finished or claimed again meanwhile (a lease outlived by a slow call)',
      registers: [registry],
    });
    this.deleted = new Counter({
      name: `${prefix}_deleted_total`,
      help: `Acknowledged commands of ${table} deleted after their retention`,
      registers: [registry],
    });
    new Gauge({
      name: `${prefix}_pending`,
      help: `Commands of ${table} not yet acknowledged`,
      registers: [registry],
      async collect() {
        const [row] = await dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE status = 'PENDING'`);
        this.set(row.n);
      },
    });
    // The first entry of the partial due index, one index read whatever the table holds. A command
    // backing off or leased to a dispatcher is due later, so only one nobody dispatched counts.
    new Gauge({
      name: `${prefix}_oldest_due_age_seconds`,
      help: `How long the longest-due pending command of ${table} has been due without being dispatched (0 when none)`,
      registers: [registry],
      async collect() {
        const [row] = await dataSource.query(
          `SELECT GREATEST(COALESCE(EXTRACT(EPOCH FROM now() - (SELECT next_attempt_at FROM ${table} WHERE status = 'PENDING' ORDER BY next_attempt_at LIMIT 1)), 0), 0)::float AS age`,
        );
        this.set(row.age);
      },
    });
    // A gauge beside the counter: an alert on the gauge resolves once a human retried the commands.
    new Gauge({
      name: `${prefix}_parked`,
      help: `Commands of ${table} parked after a 4xx, waiting for a human`,
      registers: [registry],
      async collect() {
        const [row] = await dataSource.query(parkedCountQuery(table));
        this.set(row.n);
      },
    });
  }
}
