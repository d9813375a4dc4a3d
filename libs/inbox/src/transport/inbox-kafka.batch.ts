import type { KafkaParser } from '@nestjs/microservices';
import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { InboxBatch } from '../core/inbox.batch.js';
import { rawInboxMessage } from '../envelope/inbox.envelope.js';

/**
 * A kafkajs `eachBatch` call as an {@link InboxBatch}: the records decoded as Nest decodes them
 * (key, value and headers from bytes, JSON parsed when it looks like JSON), offsets resolved one
 * by one as the inbox commits them. Why `eachBatch` and not Nest's `eachMessage`: several records
 * of one partition may share one transaction, with their offsets resolved only after it committed.
 */
export function inboxBatchOf(payload: EachBatchPayload, parser: KafkaParser): InboxBatch {
  const { batch, heartbeat, resolveOffset, isRunning, isStale, pause } = payload;
  const { topic, partition } = batch;
  return {
    topic,
    partition,
    records: batch.messages.map((message) =>
      rawInboxMessage(topic, partition, parser.parse<KafkaMessage & { value: unknown; headers: Record<string, unknown> }>({ ...message })),
    ),
    resolve: (record) => resolveOffset(record.offset),
    heartbeat,
    isActive: () => isRunning() && !isStale(),
    retryLater: (delayMs) => {
      // Paused, this partition is left out of the fetches; resumed, it is fetched again from its
      // last resolved offset, which is the failed record. unref: a pending retry never keeps a
      // stopping process alive.
      const resume = pause();
      setTimeout(resume, delayMs).unref();
    },
  };
}
