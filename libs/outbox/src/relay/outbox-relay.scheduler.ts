import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { JobScheduler } from '@libs/scheduling';
import { OUTBOX_CONFIG, type OutboxConfig } from '../outbox.config.js';
import { OutboxListener } from './outbox.listener.js';
import { OutboxRelay } from './outbox.relay.js';

/**
 * Drives the relay: the `OUTBOX_POLL_INTERVAL_MS` interval is the floor, LISTEN/NOTIFY the fast
 * path, and one cycle at start-up publishes what an earlier process left behind. Off (never
 * woken, still stopped on shutdown) when `OUTBOX_RELAY_ENABLED` is false.
 */
@Injectable()
export class OutboxRelayScheduler extends JobScheduler {
  constructor(
    @Inject(SchedulerRegistry) registry: SchedulerRegistry,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(OutboxListener) private readonly listener: OutboxListener,
    @Inject(OUTBOX_CONFIG) private readonly config: OutboxConfig,
  ) {
    super(
      registry,
      'outbox-relay',
      { trigger: () => relay.wake(), stop: () => relay.stop() },
      config.OUTBOX_RELAY_ENABLED ? { intervalMs: config.OUTBOX_POLL_INTERVAL_MS } : undefined,
    );
  }

  override async onApplicationBootstrap(): Promise<void> {
    await super.onApplicationBootstrap();
    if (!this.config.OUTBOX_RELAY_ENABLED) return;
    if (this.config.OUTBOX_LISTEN_ENABLED) await this.listener.start(() => this.relay.wake());
    this.relay.wake();
  }

  /** Runs before the DataSource closes: stop the wake-ups, then await the in-flight cycle. */
  override async onModuleDestroy(): Promise<void> {
    await this.listener.stop();
    await super.onModuleDestroy();
  }
}
