import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { type Admin, Kafka } from 'kafkajs';
import type { KafkaHealthConfig } from './kafka-health.config.js';

export const KAFKA_HEALTH_OPTIONS = Symbol('KAFKA_HEALTH_OPTIONS');

/** How the `GET /health` Kafka probe asks, and how long it reuses an answer. */
export interface KafkaHealthOptions {
  /**
   * How long an answer, up or down, is reused (`KAFKA_HEALTH_CACHE_MS`, default 2000). Higher is
   * cheaper for the broker and reports an outage, or its end, up to that much later.
   */
  cacheMs: number;
  /** Longest one probe waits for the cluster before it answers down. Default 3000. */
  timeoutMs?: number;
}

/** The probe's options from an app's validated configuration. */
export function kafkaHealthOptions(config: KafkaHealthConfig): KafkaHealthOptions {
  return { cacheMs: config.KAFKA_HEALTH_CACHE_MS };
}

/** One admin client and the connection it is opening (or has opened). */
interface AdminConnection {
  admin: Admin;
  connected: Promise<void>;
}

/**
 * `GET /health` entry: the cluster answers a metadata request within the timeout.
 *
 * Why one admin client per process, connected on the first probe and kept: `GET /health` needs no
 * token, and a client per call cost the broker a TCP connection, a SASL handshake and a metadata
 * request for each one anybody sent. Why the answer is cached: the same flood
 * then costs at most one request per `cacheMs`; terminus' `cacheFor` keeps the last answer, down
 * included, and lets concurrent calls share the probe in flight. A failed or timed-out probe drops
 * the client (the next probe connects afresh, so a broken connection is never reused); the client
 * is disconnected when the app shuts down.
 */
@Injectable()
export class KafkaHealthIndicator implements OnApplicationShutdown {
  private connection?: AdminConnection;
  private closed = false;

  constructor(
    @Inject(Kafka) private readonly kafka: Kafka,
    @Inject(HealthIndicatorService) private readonly health: HealthIndicatorService,
    @Inject(KAFKA_HEALTH_OPTIONS) private readonly options: KafkaHealthOptions,
  ) {}

  check() {
    return this.health
      .check('kafka')
      .attempt(({ signal }) => this.describeCluster(signal))
      .withTimeout(this.options.timeoutMs ?? 3000)
      .cacheFor(this.options.cacheMs);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = undefined;
    await connection?.admin.disconnect().catch(() => undefined);
  }

  private async describeCluster(signal: AbortSignal): Promise<{ brokers: number; controller: number | null }> {
    if (this.closed) throw new Error('the app is shutting down');
    const connection = this.connect();
    // terminus aborts the signal on a timeout, and after every attempt: only an abort before this
    // probe ended means the client hangs, and is dropped.
    const onTimeout = () => this.drop(connection);
    signal.addEventListener('abort', onTimeout, { once: true });
    try {
      await connection.connected;
      const cluster = await connection.admin.describeCluster();
      return { brokers: cluster.brokers.length, controller: cluster.controller };
    } catch (error) {
      this.drop(connection);
      throw error;
    } finally {
      signal.removeEventListener('abort', onTimeout);
    }
  }

  private connect(): AdminConnection {
    if (!this.connection) {
      const admin = this.kafka.admin();
      this.connection = { admin, connected: admin.connect() };
    }
    return this.connection;
  }

  /** Forgets `connection` (unless a newer one replaced it already) and closes it in the background. */
  private drop(connection: AdminConnection): void {
    if (this.connection === connection) this.connection = undefined;
    connection.admin.disconnect().catch(() => undefined);
  }
}
