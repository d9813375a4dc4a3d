import { Inject, Injectable, Logger } from '@nestjs/common';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { OUTBOX_CHANNEL } from './outbox.writer.js';

/**
 * Holds one dedicated connection in `LISTEN outbox_messages` and calls `onNotify` for each commit
 * that wrote outbox rows. Best effort by design: while it reconnects, the poll interval covers.
 */
@Injectable()
export class OutboxListener {
  private readonly logger = new Logger(OutboxListener.name);
  private client: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async start(onNotify: () => void): Promise<void> {
    this.closed = false;
    const options = this.dataSource.options as { url?: string };
    const client = new pg.Client({ connectionString: options.url, application_name: 'outbox-listener' });
    client.on('notification', () => onNotify());
    client.on('error', (error) => this.reconnectLater(onNotify, error));
    client.on('end', () => this.reconnectLater(onNotify));
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.client = client;
      // Rows committed while we were not listening would otherwise wait for the next poll.
      onNotify();
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.reconnectLater(onNotify, error as Error);
    }
  }

  private reconnectLater(onNotify: () => void, error?: Error): void {
    if (this.closed || this.reconnectTimer) return;
    if (error) this.logger.warn(`LISTEN connection lost (${error.message}); reconnecting`);
    this.client = undefined;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.start(onNotify);
    }, 1000);
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}
