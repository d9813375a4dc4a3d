import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { retryDelayMs } from '@app/backoff';
import { failpoint } from '@app/failpoints';
import { INVENTORY_CONFIG } from '../inventory-config.token.js';
import type { InventoryConfig } from '../inventory.config.js';
import type { LoyaltyCommand } from './loyalty-command.entity.js';
import { sendAccrual } from './loyalty.client.js';
import { LoyaltyMetrics } from './loyalty.metrics.js';

const SELECT_DUE = `
  SELECT id, customer_id AS "customerId", order_id AS "orderId", points, attempts
  FROM loyalty_commands
  WHERE status = 'PENDING' AND next_attempt_at <= now()
  ORDER BY next_attempt_at
  LIMIT $1`;

/**
 * Sends pending loyalty commands until loyalty acknowledges them. Sending twice is safe by design
 * (the key makes loyalty replay its stored answer), so there is no lock around the HTTP call:
 * a crash after loyalty accepted and before we marked the row just means one more, harmless, call.
 */
@Injectable()
export class LoyaltyDispatcher {
  private readonly logger = new Logger(LoyaltyDispatcher.name);
  private inFlight: Promise<void> | undefined;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(LoyaltyMetrics) private readonly metrics: LoyaltyMetrics,
    @Inject(INVENTORY_CONFIG) private readonly config: InventoryConfig,
  ) {}

  /** Starts a cycle unless one is running (cycles never overlap). */
  tick(): void {
    this.inFlight ??= this.dispatchDue()
      .catch((error: Error) => this.logger.error(`Loyalty dispatch failed: ${error.message}`))
      .finally(() => {
        this.inFlight = undefined;
      });
  }

  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  private async dispatchDue(): Promise<void> {
    const due: LoyaltyCommand[] = await this.dataSource.query(SELECT_DUE, [this.config.LOYALTY_DISPATCH_BATCH_SIZE]);
    for (const command of due) {
      const outcome = await sendAccrual(this.config.LOYALTY_BASE_URL, command, this.config.LOYALTY_REQUEST_TIMEOUT_MS);
      if (outcome.kind === 'accepted') {
        await failpoint('dispatcher.after-accepted-before-mark', command.id);
        await this.dataSource.query(
          "UPDATE loyalty_commands SET status = 'DONE', attempts = attempts + 1, last_error = NULL, completed_at = now() WHERE id = $1",
          [command.id],
        );
        this.metrics.done.inc();
      } else if (outcome.kind === 'rejected') {
        await this.dataSource.query(
          "UPDATE loyalty_commands SET status = 'PARKED', attempts = attempts + 1, last_error = $2 WHERE id = $1",
          [command.id, outcome.error],
        );
        this.metrics.parked.inc();
        this.logger.error(`Loyalty command ${command.id} parked: ${outcome.error}`);
      } else {
        const delayMs = retryDelayMs(command.attempts + 1, this.config.LOYALTY_RETRY_BASE_MS, this.config.LOYALTY_RETRY_MAX_MS);
        await this.dataSource.query(
          `UPDATE loyalty_commands SET attempts = attempts + 1, last_error = $2,
             next_attempt_at = now() + make_interval(secs => $3::float / 1000)
           WHERE id = $1`,
          [command.id, outcome.error, delayMs],
        );
        this.metrics.retried.inc();
      }
    }
  }
}
