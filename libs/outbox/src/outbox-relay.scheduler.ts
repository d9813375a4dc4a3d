import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { OUTBOX_CONFIG, type OutboxConfig } from './outbox-options.js';
import { OutboxCleanup } from './outbox.cleanup.js';
import { OutboxListener } from './outbox.listener.js';
import { OutboxRelay } from './outbox.relay.js';

const RELAY_INTERVAL = 'outbox-relay';
const CLEANUP_JOB = 'outbox-cleanup';

/**
 * Drives the relay: the `@nestjs/schedule` interval is the floor, LISTEN/NOTIFY the fast path.
 * Registered at runtime (not by decorators) because the interval and cron come from configuration.
 */
@Injectable()
export class OutboxRelayScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(SchedulerRegistry) private readonly registry: SchedulerRegistry,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(OutboxListener) private readonly listener: OutboxListener,
    @Inject(OutboxCleanup) private readonly cleanup: OutboxCleanup,
    @Inject(OUTBOX_CONFIG) private readonly config: OutboxConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.cleanup.schedule(this.registry, CLEANUP_JOB, this.config.OUTBOX_CLEANUP_CRON);
    if (!this.config.OUTBOX_RELAY_ENABLED) return;
    this.registry.addInterval(RELAY_INTERVAL, setInterval(() => this.relay.wake(), this.config.OUTBOX_POLL_INTERVAL_MS));
    if (this.config.OUTBOX_LISTEN_ENABLED) await this.listener.start(() => this.relay.wake());
    this.relay.wake();
  }

  /** Runs before the DataSource closes: stop triggers, then await the in-flight cycle. */
  async onModuleDestroy(): Promise<void> {
    if (this.registry.doesExist('interval', RELAY_INTERVAL)) this.registry.deleteInterval(RELAY_INTERVAL);
    await this.listener.stop();
    await Promise.all([this.relay.stop(), this.cleanup.unschedule(this.registry, CLEANUP_JOB)]);
  }
}
