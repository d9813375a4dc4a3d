import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { JobScheduler } from '@app/scheduling';
import { INBOX_CONFIG, type InboxConfig } from './inbox.config.js';
import { InboxCleanup } from './inbox.cleanup.js';

/** Runs {@link InboxCleanup} on `INBOX_CLEANUP_CRON`; awaits a run in flight on shutdown. */
@Injectable()
export class InboxCleanupScheduler extends JobScheduler {
  constructor(
    @Inject(SchedulerRegistry) registry: SchedulerRegistry,
    @Inject(InboxCleanup) cleanup: InboxCleanup,
    @Inject(INBOX_CONFIG) config: InboxConfig,
  ) {
    super(registry, 'inbox-cleanup', cleanup, { cron: config.INBOX_CLEANUP_CRON });
  }
}
