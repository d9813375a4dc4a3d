import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { type Admin, Kafka } from 'kafkajs';
import { Gauge, Registry } from 'prom-client';
import { consumerLag } from './consumer-lag.js';

/** What {@link ConsumerLagMonitor} watches. */
export interface ConsumerLagOptions {
  /** The app's consumer group (`KAFKA_CONSUMER_GROUP`). */
  groupId: string;
  /** The topics its handlers consume. */
  topics: string[];
  /** Period of the reads (`KAFKA_LAG_INTERVAL_MS`). */
  intervalMs: number;
}

export const CONSUMER_LAG_OPTIONS = Symbol('CONSUMER_LAG_OPTIONS');

/** Longest wait on shutdown for a lag read in flight. */
const SHUTDOWN_WAIT_MS = 2000;

/**
 * A read retries once, briefly: it only feeds a gauge, and the next interval reads again. kafkajs
 * keeps retrying a request (reconnecting for it) even after its client was disconnected, so a read
 * with the client's full retry budget could run on for seconds after its app had closed.
 */
const READ_RETRY = { retries: 1, initialRetryTime: 100, maxRetryTime: 500 };

/**
 * `kafka_consumer_lag{group,topic,partition}`, read from the broker on a timer rather than at scrape
 * time: a scrape must answer fast even while Kafka does not, and a stale value beside
 * `kafka_consumer_lag_last_read_timestamp_seconds` tells more than a scrape that times out. The
 * committed offsets are the group's, not this replica's: every replica reports the same numbers, so
 * aggregate with `max`, not `sum`.
 */
@Injectable()
export class ConsumerLagMonitor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ConsumerLagMonitor.name);
  private readonly lag: Gauge<'group' | 'topic' | 'partition'>;
  private readonly lastRead: Gauge<'group'>;
  private admin: Admin | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private failing = false;
  private stopped = false;

  constructor(
    @Inject(Kafka) private readonly kafka: Kafka,
    @Inject(Registry) registry: Registry,
    @Inject(CONSUMER_LAG_OPTIONS) private readonly options: ConsumerLagOptions,
  ) {
    this.lag = new Gauge({
      name: 'kafka_consumer_lag',
      help: "Records on the partition past the consumer group's committed offset (end offset minus committed offset)",
      labelNames: ['group', 'topic', 'partition'],
      registers: [registry],
    });
    this.lastRead = new Gauge({
      name: 'kafka_consumer_lag_last_read_timestamp_seconds',
      help: 'When kafka_consumer_lag was last read from the broker (Unix seconds); old means the values are stale',
      labelNames: ['group'],
      registers: [registry],
    });
  }

  onApplicationBootstrap(): void {
    void this.read();
    this.timer = setInterval(() => void this.read(), this.options.intervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    // A read stuck in kafkajs retries during a Kafka outage must not hold up the shutdown: it only
    // feeds a gauge, so wait briefly, then disconnect under it.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_WAIT_MS)))]);
    clearTimeout(timer);
    await this.admin?.disconnect().catch(() => undefined);
  }

  /** One read of every partition's lag; joins the read in flight instead of overlapping it. */
  read(): Promise<void> {
    this.running ??= this.readOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async readOnce(): Promise<void> {
    const { groupId, topics } = this.options;
    try {
      // Held before it connects, so a shutdown during the connect still disconnects it.
      if (!this.admin) {
        const admin = (this.admin = this.kafka.admin({ retry: READ_RETRY }));
        await admin.connect().catch((error: unknown) => {
          this.admin = undefined;
          throw error;
        });
      }
      // A read that outlived the shutdown's wait stops here instead of reading on a closed app.
      if (this.stopped) return;
      for (const { topic, partition, lag } of await consumerLag(this.admin, groupId, topics)) {
        this.lag.set({ group: groupId, topic, partition: String(partition) }, lag);
      }
      this.lastRead.set({ group: groupId }, Date.now() / 1000);
      if (this.failing) this.logger.log('Consumer lag readable again');
      this.failing = false;
    } catch (error) {
      // Once per outage, not every interval: the Kafka health check already reports the outage.
      if (!this.failing) this.logger.warn(`Consumer lag not readable: ${(error as Error).message}`);
      this.failing = true;
    }
  }
}
