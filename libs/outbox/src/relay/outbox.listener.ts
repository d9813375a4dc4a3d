import { Inject, Injectable, Logger } from '@nestjs/common';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { OUTBOX_CHANNEL } from '../write/outbox.writer.js';

const RECONNECT_DELAY_MS = 1000;

/**
 * Holds one dedicated connection in `LISTEN outbox_messages` and calls `onNotify` for each commit
 * that wrote outbox rows. Best effort by design: while it reconnects, the poll interval covers.
 *
 * Lifecycle rules (a late event of an old client once started a second listener): at most one client exists at any time, and only the current
 * one may act. A client's `error` and `end` events both fire when its connection drops; an old
 * client's late event must not start a second listener, so every handler first checks that its
 * client is still the current one. `stop()` during start-up wins: the connect that was in flight
 * is closed as soon as it completes, instead of listening forever unowned.
 */
@Injectable()
export class OutboxListener {
  private readonly logger = new Logger(OutboxListener.name);
  private client: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = true;
  private onNotify: () => void = () => undefined;
  /** The client whose `connect()` is still in flight: pg never settles that promise if it is ended. */
  private connecting: pg.Client | undefined;

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async start(onNotify: () => void): Promise<void> {
    this.closed = false;
    this.onNotify = onNotify;
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed || this.client) return;
    // The pool's URL and TLS: the listener's connection is as protected as the pool's.
    const options = this.dataSource.options as { url?: string; ssl?: pg.ClientConfig['ssl'] };
    const client = new pg.Client({ connectionString: options.url, ssl: options.ssl, application_name: 'outbox-listener' });
    this.client = client;
    client.on('notification', () => {
      if (this.client === client) this.onNotify();
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      this.connecting = client;
      await client.connect().finally(() => {
        this.connecting = undefined;
      });
      if (this.client !== client) return void client.end().catch(() => undefined); // stopped while connecting
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      if (this.client !== client) return void client.end().catch(() => undefined);
      // Rows committed while no LISTEN was open would otherwise wait for the next poll.
      this.onNotify();
    } catch (error) {
      this.lost(client, error as Error);
    }
  }

  /** `client` failed or ended: if it is the current one, drop it and try again later. */
  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners('end');
    if (client !== this.connecting) client.end().catch(() => undefined);
    if (this.closed || this.reconnectTimer) return;
    this.logger.warn(`LISTEN connection lost${error ? ` (${error.message})` : ''}; reconnecting in ${RECONNECT_DELAY_MS} ms`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, RECONNECT_DELAY_MS);
  }

  /** Number of open LISTEN clients: 0 or 1. For tests and health checks. */
  get listening(): number {
    return this.client ? 1 : 0;
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const client = this.client;
    this.client = undefined;
    // A client still connecting is left to finish: ending it would leave its connect() pending for
    // ever (pg 8), and start() with it. The check after `await client.connect()` sees it is no
    // longer current and closes it.
    if (client && client !== this.connecting) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}
