import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { JobScheduler } from '@app/scheduling';
import { IdempotencyCleanup } from './idempotency.cleanup.js';
import { IDEMPOTENCY_CONFIG, type IdempotencyConfig } from './idempotency.config.js';

/** Runs {@link IdempotencyCleanup} on `IDEMPOTENCY_CLEANUP_CRON`; awaits a run in flight on shutdown. */
@Injectable()
export class IdempotencyCleanupScheduler extends JobScheduler {
  constructor(
    @Inject(SchedulerRegistry) registry: SchedulerRegistry,
    @Inject(IdempotencyCleanup) cleanup: IdempotencyCleanup,
    @Inject(IDEMPOTENCY_CONFIG) config: IdempotencyConfig,
  ) {
    super(registry, 'idempotency-cleanup', cleanup, { cron: config.IDEMPOTENCY_CLEANUP_CRON });
  }
}
