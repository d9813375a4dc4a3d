import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { INBOX_CONFIG, type InboxConfig } from './inbox.config.js';
import { InboxCleanup } from './inbox.cleanup.js';

const CLEANUP_JOB = 'inbox-cleanup';

/** Runs {@link InboxCleanup} on `INBOX_CLEANUP_CRON` (registered at runtime: the cron is configuration). */
@Injectable()
export class InboxCleanupScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(InboxCleanupScheduler.name);

  constructor(
    @Inject(SchedulerRegistry) private readonly registry: SchedulerRegistry,
    @Inject(InboxCleanup) private readonly cleanup: InboxCleanup,
    @Inject(INBOX_CONFIG) private readonly config: InboxConfig,
  ) {}

  onApplicationBootstrap(): void {
    const job = CronJob.from({
      cronTime: this.config.INBOX_CLEANUP_CRON,
      onTick: () => {
        this.cleanup.run().catch((error: Error) => this.logger.error(`Inbox cleanup failed: ${error.message}`));
      },
    });
    this.registry.addCronJob(CLEANUP_JOB, job);
    job.start();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.registry.doesExist('cron', CLEANUP_JOB)) this.registry.deleteCronJob(CLEANUP_JOB);
    await this.cleanup.run().catch(() => undefined);
  }
}
