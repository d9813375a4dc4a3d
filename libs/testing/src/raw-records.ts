import { randomUUID } from 'node:crypto';
import { MessageCatalog } from '@app/contracts';
import { Headers } from '@app/envelope';
import { createKafka } from '@app/kafka';
import { uniqueName } from './unique-name.js';

/** A Kafka record exactly as a test wants it on the wire: nothing is added or checked. */
export interface RawRecord {
  key: string | null;
  /** Sent as is: a string that is not JSON, a Buffer, or null all make good poison. */
  value: string | Buffer | null;
  headers?: Record<string, string>;
}

/** Where a published record landed. */
export interface RecordPosition {
  partition: number;
  offset: number;
}

/**
 * Publishes `records` to `topic` one at a time, in order, each acknowledged by all in-sync replicas
 * before the next is sent, and returns where each landed. One at a time because a test that mixes
 * poison with valid records needs their exact offsets (the DLQ names them) and their exact order.
 */
export async function publishRecords(brokers: string[], topic: string, records: RawRecord[]): Promise<RecordPosition[]> {
  const producer = createKafka({ brokers, clientId: uniqueName('test-publisher') }).producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    const positions: RecordPosition[] = [];
    for (const record of records) {
      const [metadata] = await producer.send({ topic, acks: -1, messages: [record] });
      positions.push({ partition: metadata.partition, offset: Number(metadata.baseOffset) });
    }
    return positions;
  } finally {
    await producer.disconnect();
  }
}

export interface EventRecordOptions {
  /** Default: a new UUID. Reuse one to publish "the same message" twice. */
  messageId?: string;
  /** Default: the payload's `orderId`, as the services key their events. */
  key?: string;
  /** Extra headers; they win over the envelope's, e.g. to break one on purpose. */
  headers?: Record<string, string>;
}

/**
 * A valid record of a catalogued event (`OrderCreated`, `StockReserved`, ...) with the envelope
 * headers the services write: what a real producer would publish, without running one.
 */
export function eventRecord(topic: string, messageType: string, payload: object, options: EventRecordOptions = {}): RawRecord {
  const definition = MessageCatalog[topic]?.[messageType];
  if (!definition) throw new Error(`${messageType} is not an event of ${topic}`);
  const messageId = options.messageId ?? randomUUID();
  const orderId = (payload as { orderId?: unknown }).orderId;
  const key = options.key ?? (typeof orderId === 'string' ? orderId : messageId);
  return {
    key,
    value: JSON.stringify(payload),
    headers: {
      [Headers.messageId]: messageId,
      [Headers.messageType]: messageType,
      [Headers.schemaVersion]: String(definition.schemaVersion),
      [Headers.aggregateId]: key,
      [Headers.occurredAt]: new Date().toISOString(),
      [Headers.correlationId]: key,
      ...options.headers,
    },
  };
}
