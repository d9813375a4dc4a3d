import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { JobScheduler } from '@app/scheduling';
import { INVENTORY_CONFIG } from '../../inventory-config.token.js';
import type { InventoryConfig } from '../../inventory.config.js';
import { CancelledOrdersCleanup } from './cancelled-orders.cleanup.js';

/** Runs {@link CancelledOrdersCleanup} on the inbox's cron (`INBOX_CLEANUP_CRON`); awaits a run in flight on shutdown. */
@Injectable()
export class CancelledOrdersCleanupScheduler extends JobScheduler {
  constructor(
    @Inject(SchedulerRegistry) registry: SchedulerRegistry,
    @Inject(CancelledOrdersCleanup) cleanup: CancelledOrdersCleanup,
    @Inject(INVENTORY_CONFIG) config: InventoryConfig,
  ) {
    super(registry, 'cancelled-orders-cleanup', cleanup, { cron: config.INBOX_CLEANUP_CRON });
  }
}
