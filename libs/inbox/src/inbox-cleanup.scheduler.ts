import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { INBOX_CONFIG, type InboxConfig } from './inbox.config.js';
import { InboxCleanup } from './inbox.cleanup.js';

const CLEANUP_JOB = 'inbox-cleanup';

/** Runs {@link InboxCleanup} on `INBOX_CLEANUP_CRON`; awaits a run in flight on shutdown. */
@Injectable()
export class InboxCleanupScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(SchedulerRegistry) private readonly registry: SchedulerRegistry,
    @Inject(InboxCleanup) private readonly cleanup: InboxCleanup,
    @Inject(INBOX_CONFIG) private readonly config: InboxConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.cleanup.schedule(this.registry, CLEANUP_JOB, this.config.INBOX_CLEANUP_CRON);
  }

  async onModuleDestroy(): Promise<void> {
    await this.cleanup.unschedule(this.registry, CLEANUP_JOB);
  }
}
