import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';

@Injectable()
export class LoyaltyMetrics {
  readonly done: Counter;
  readonly parked: Counter;
  readonly retried: Counter;
  readonly staleOutcomes: Counter;

  constructor(@Inject(Registry) registry: Registry, @Inject(DataSource) dataSource: DataSource) {
    this.done = new Counter({ name: 'loyalty_commands_done_total', help: 'Loyalty commands acknowledged with 2xx', registers: [registry] });
    this.parked = new Counter({
      name: 'loyalty_commands_parked_total',
      help: 'Loyalty commands parked after a 4xx: they need a human',
      registers: [registry],
    });
    this.retried = new Counter({
      name: 'loyalty_commands_retried_total',
      help: 'Loyalty calls that timed out or got 5xx and were scheduled again',
      registers: [registry],
    });
    this.staleOutcomes = new Counter({
      name: 'loyalty_commands_stale_outcomes_total',
      help: 'Answers not recorded because the command was finished or claimed again meanwhile (a lease outlived by a slow call)',
      registers: [registry],
    });
    new Gauge({
      name: 'loyalty_commands_pending',
      help: 'Loyalty commands not yet acknowledged',
      registers: [registry],
      async collect() {
        const [row] = await dataSource.query("SELECT count(*)::int AS n FROM loyalty_commands WHERE status = 'PENDING'");
        this.set(row.n);
      },
    });
    // A gauge beside the counter: an alert on the gauge resolves once a human retried the commands.
    new Gauge({
      name: 'loyalty_commands_parked',
      help: 'Loyalty commands parked after a 4xx, waiting for a human (npm run ops -- loyalty parked)',
      registers: [registry],
      async collect() {
        const [row] = await dataSource.query("SELECT count(*)::int AS n FROM loyalty_commands WHERE status = 'PARKED'");
        this.set(row.n);
      },
    });
  }
}
