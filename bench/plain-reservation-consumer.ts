// The inbox figure's baseline: a plain kafkajs consumer that runs inventory's reservation
// transaction (lock stock rows in SKU order, check, decrement, reservation row, loyalty command,
// StockReserved outbox row and its pg_notify) in raw SQL, WITHOUT the inbox row and without Nest.
// What the inventory app does beyond this is the price of exactly-once handling and of the framework.
import { randomUUID } from 'node:crypto';
import type { Consumer } from 'kafkajs';
import pg from 'pg';
import { type OrderCreated, Topics } from '@libs/contracts';
import { databaseUrl } from '@libs/database';
import { createKafka } from '@libs/kafka';

async function reserve(pool: pg.Pool, order: OrderCreated): Promise<void> {
  const totals = new Map<string, number>();
  for (const { sku, quantity } of order.items) totals.set(sku, (totals.get(sku) ?? 0) + quantity);
  const lines = [...totals].sort(([a], [b]) => (a < b ? -1 : 1)).map(([sku, quantity]) => ({ sku, quantity }));
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const stock = await client.query<{ sku: string; available: number }>(
      'SELECT sku, available FROM stock_items WHERE sku = ANY($1) ORDER BY sku FOR UPDATE',
      [lines.map((line) => line.sku)],
    );
    const available = new Map(stock.rows.map((row) => [row.sku, row.available]));
    const reservable = lines.every((line) => (available.get(line.sku) ?? -1) >= line.quantity);
    const now = new Date().toISOString();
    if (reservable) {
      for (const line of lines) {
        await client.query(
          'UPDATE stock_items SET available = available - $2, reserved = reserved + $2, updated_at = now() WHERE sku = $1',
          [line.sku, line.quantity],
        );
      }
      await client.query("INSERT INTO reservations (order_id, status, items) VALUES ($1, 'RESERVED', $2)", [
        order.orderId,
        JSON.stringify(lines),
      ]);
      const points = Math.floor(order.totalCents / 100);
      if (points > 0) {
        await client.query("INSERT INTO loyalty_commands (id, path, body) VALUES ($1, '/accruals', $2)", [
          `loyalty-accrual:${order.orderId}`,
          JSON.stringify({ customerId: order.customerId, orderId: order.orderId, points }),
        ]);
      }
    }
    const messageType = reservable ? 'StockReserved' : 'StockRejected';
    await client.query(
      `INSERT INTO outbox_messages (id, aggregate_type, aggregate_id, message_type, topic, key, payload, headers, created_at)
       VALUES ($1, 'reservation', $2, $3, $4, $2, $5, $6, $7)`,
      [
        randomUUID(),
        order.orderId,
        messageType,
        Topics.reservations,
        JSON.stringify({ orderId: order.orderId, items: lines, reservedAt: now }),
        JSON.stringify({ 'message-type': messageType }),
        now,
      ],
    );
    await client.query('SELECT pg_notify($1, $2)', ['outbox_messages', Topics.reservations]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** A running baseline consumer; {@link stop} disconnects it and closes its pool. */
export class PlainReservationConsumer {
  private constructor(
    private readonly consumer: Consumer,
    private readonly pool: pg.Pool,
  ) {}

  /**
   * Joins `groupId` (positioned beforehand) on `orders.order.v1` and reserves every OrderCreated,
   * one transaction per message, `concurrency` partitions at a time, offsets auto-committed.
   */
  static async start(options: {
    brokers: string[];
    serverUrl: string;
    database: string;
    groupId: string;
    concurrency: number;
  }): Promise<PlainReservationConsumer> {
    const pool = new pg.Pool({ connectionString: databaseUrl(options.serverUrl, options.database), max: options.concurrency + 1 });
    const consumer = createKafka({ brokers: options.brokers, clientId: 'bench-plain-consumer' }).consumer({ groupId: options.groupId });
    await consumer.connect();
    await consumer.subscribe({ topics: [Topics.orders], fromBeginning: true });
    await consumer.run({
      partitionsConsumedConcurrently: options.concurrency,
      eachMessage: async ({ message }) => {
        if (message.headers?.['message-type']?.toString() !== 'OrderCreated' || !message.value) return;
        await reserve(pool, JSON.parse(message.value.toString()) as OrderCreated);
      },
    });
    return new PlainReservationConsumer(consumer, pool);
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
    await this.pool.end();
  }
}
