import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { JobScheduler } from '@app/scheduling';
import { OUTBOX_CONFIG, type OutboxConfig } from './outbox.config.js';
import { OutboxCleanup } from './outbox.cleanup.js';

/** Runs {@link OutboxCleanup} on `OUTBOX_CLEANUP_CRON`; awaits a run in flight on shutdown. */
@Injectable()
export class OutboxCleanupScheduler extends JobScheduler {
  constructor(
    @Inject(SchedulerRegistry) registry: SchedulerRegistry,
    @Inject(OutboxCleanup) cleanup: OutboxCleanup,
    @Inject(OUTBOX_CONFIG) config: OutboxConfig,
  ) {
    super(registry, 'outbox-cleanup', cleanup, { cron: config.OUTBOX_CLEANUP_CRON });
  }
}
