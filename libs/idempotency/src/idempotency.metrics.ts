import { Inject, Injectable, Optional } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/**
 * How often clients retry: a replay is a request whose key was already stored, answered from the
 * stored response without running the effect again. A rising replay rate means clients time out
 * (or crash) before they read answers; conflicts mean a client reuses keys for different bodies.
 */
@Injectable()
export class IdempotencyMetrics {
  readonly replays: Counter<'route'>;
  readonly conflicts: Counter<'route'>;

  /** @param registry The app's registry (`MetricsModule`); without one the counters count unexported. */
  constructor(@Optional() @Inject(Registry) registry?: Registry) {
    const registers = registry ? [registry] : [];
    this.replays = new Counter({
      name: 'idempotency_replays_total',
      help: 'Requests answered from a stored response because their Idempotency-Key was already used with the same body',
      labelNames: ['route'],
      registers,
    });
    this.conflicts = new Counter({
      name: 'idempotency_key_conflicts_total',
      help: 'Requests refused with 422 because their Idempotency-Key was already used with another body',
      labelNames: ['route'],
      registers,
    });
  }
}
