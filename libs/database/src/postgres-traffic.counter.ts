import { Inject, Injectable, Optional } from '@nestjs/common';
import pg from 'pg';
import { Counter, Registry } from 'prom-client';

/** What this process sent Postgres since it started, over every pool connection of every data source. */
const counts = { roundTrips: 0, statements: 0 };

/** The messages of pg's connection that are counted; pg emits each by its name (`pg/lib/connection.js`). */
interface Messages {
  on(event: 'readyForQuery' | 'commandComplete' | 'errorMessage', listener: () => void): void;
}

/**
 * A pg client that counts what it costs Postgres, from the server's own answers:
 * - a round trip for every ReadyForQuery (one ends each simple query and each Sync, so a batch of
 *   statements sent together, such as BEGIN and the writes held for a COMMIT, is one);
 * - a statement for every CommandComplete or ErrorResponse (BEGIN and COMMIT included, as
 *   `pg_stat_statements` counts them; a statement Postgres skipped after an error in its batch is
 *   not one).
 * Counted here, not read from `pg_stat_statements`, because a server seldom loads it (this one
 * does not) and because a process can tell its own share only this way. pg-pool builds every
 * connection with this class (or {@link PreparingClient}, which extends it); a client made apart,
 * such as the outbox's LISTEN connection, is not counted.
 */
export class CountedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const messages = (this as unknown as { connection: Messages }).connection;
    messages.on('readyForQuery', () => (counts.roundTrips += 1));
    messages.on('commandComplete', () => (counts.statements += 1));
    messages.on('errorMessage', () => (counts.statements += 1));
  }
}

/** A copy of the process' counts. */
export function postgresTrafficCounts(): { roundTrips: number; statements: number } {
  return { ...counts };
}

/**
 * `postgres_round_trips_total` and `postgres_statements_total`: what this process costs Postgres,
 * for the bench's figures per order and for production (round trips per request that jump say a
 * statement lost its batch, or a loop lost its batching). Read from the process-wide counts at
 * scrape time. Without a metrics registry (a tool, a test without MetricsModule) they are still
 * counted, just not exported.
 */
@Injectable()
export class PostgresTrafficMetrics {
  constructor(@Optional() @Inject(Registry) registry?: Registry) {
    if (!registry || registry.getSingleMetric('postgres_round_trips_total')) return;
    const reported = { roundTrips: 0, statements: 0 };
    const exported = (name: string, help: string, part: keyof typeof counts) =>
      new Counter({
        name,
        help,
        registers: [registry],
        collect() {
          const delta = counts[part] - reported[part];
          if (delta > 0) this.inc(delta);
          reported[part] = counts[part];
        },
      });
    exported(
      'postgres_round_trips_total',
      'Round trips this process made to Postgres (ReadyForQuery messages: one per simple query or batch of statements)',
      'roundTrips',
    );
    exported(
      'postgres_statements_total',
      'Statements Postgres ran for this process, BEGIN and COMMIT included (CommandComplete and ErrorResponse messages)',
      'statements',
    );
  }
}
