import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { type Admin, Kafka, type Message, Partitioners, type PartitionMetadata } from 'kafkajs';
import { messageSigning, signatureHeaders, type SigningKey } from '@libs/envelope';
import { ACKS_ALL, describeRecords, RenewableProducer, sendBatchAcknowledged } from '@libs/kafka';
import { isBrokerUnavailable } from './broker-unavailable.error.js';
import type { OutboxMessage } from '../storage/outbox-message.entity.js';
import { OUTBOX_CONFIG, type OutboxConfig } from '../outbox.config.js';
import { isPartitionUnavailable, PartitionWithoutLeader } from './partition-unavailable.error.js';
import { PublishDeadline } from './publish.deadline.js';

export interface PublishOutcome {
  published: OutboxMessage[];
  failed: { row: OutboxMessage; error: Error }[];
}

/**
 * The record of `row`; signed with `signWith` when given. Signed here, at publish time, not when
 * the row is written: the key then never sits in the database, and a rotation applies to every row
 * not yet published.
 */
function toKafkaMessage(row: OutboxMessage, signWith?: SigningKey): Message {
  const headers = signWith
    ? { ...row.headers, ...signatureHeaders({ topic: row.topic, key: row.key, headers: row.headers, payload: row.payload }, signWith) }
    : row.headers;
  return { key: row.key, value: JSON.stringify(row.payload), headers };
}

function groupByTopic(rows: OutboxMessage[], signWith?: SigningKey) {
  const byTopic = new Map<string, Message[]>();
  for (const row of rows) {
    const messages = byTopic.get(row.topic) ?? [];
    messages.push(toKafkaMessage(row, signWith));
    byTopic.set(row.topic, messages);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

/** Rows of one topic-partition, in batch order; `leader` < 0 when the metadata names none. */
interface PartitionGroup {
  name: string;
  leader: number;
  rows: OutboxMessage[];
  /** True when the metadata could not be read: the rows go straight to one-by-one isolation. */
  unknown?: boolean;
}

/**
 * Sends outbox rows with one idempotent producer, one awaited request at a time (see
 * `createIdempotentProducer` for why), and reports which rows the broker acknowledged.
 */
@Injectable()
export class OutboxPublisher {
  private readonly logger = new Logger(OutboxPublisher.name);
  /** Bounded retries: a relay waiting on a dead broker holds its cycle; backoff, not retries, covers outages. */
  private readonly producer: RenewableProducer;
  private admin: Promise<Admin> | undefined;
  // The same key-to-partition function kafkajs applies by default (murmur2, Java-compatible), so
  // the groups below are exactly the partitions the rows would land in.
  private readonly partitioner = Partitioners.DefaultPartitioner();
  /** This service's own private key (`MESSAGE_SIGNING_KEY`) records are signed with; undefined: not signed. */
  private readonly signWith: SigningKey | undefined;

  constructor(
    @Inject(Kafka) private readonly kafka: Kafka,
    @Optional() @Inject(OUTBOX_CONFIG) config?: OutboxConfig,
  ) {
    this.signWith = config ? messageSigning(config).signWith : undefined;
    this.producer = new RenewableProducer(kafka, { retry: { retries: 4, initialRetryTime: 100, maxRetryTime: 2000 } });
  }

  private async send(rows: OutboxMessage[], deadline: PublishDeadline): Promise<void> {
    try {
      await deadline.race(
        (async () => {
          const producer = await this.producer.connected();
          // Not producer.sendBatch: it can report a partition sent that it never sent (kafkajs#1303).
          await sendBatchAcknowledged(producer, { acks: ACKS_ALL, topicMessages: groupByTopic(rows, this.signWith) }, (pending) =>
            this.logger.warn(`Kafka did not acknowledge ${describeRecords(pending)} of a batch (a leader moved); sending them again`),
          );
        })(),
      );
    } catch (error) {
      // A failed send renews the producer (see RenewableProducer), also after a send abandoned at
      // the deadline, which may still be running on the old one.
      this.producer.retire();
      throw error;
    }
  }

  /**
   * One `sendBatch` for the whole batch. When it fails and the broker is still there, the rows are
   * split by topic-partition and each partition is sent on its own, so one bad partition (no
   * leader, too few replicas) cannot hold back the healthy ones: every later batch would contain
   * rows of it, and the whole relay would stall with it. A partition the metadata shows without a
   * leader is failed without a send. Inside a partition that fails for a reason about a message,
   * rows are retried one by one to isolate the bad one: an aggregate stops at its first failure
   * (later rows of it stay pending, preserving order), other aggregates go on. All of it runs
   * within `deadline`; whatever is not sent when it passes fails and backs off.
   */
  async publish(rows: OutboxMessage[], deadline: PublishDeadline = PublishDeadline.none()): Promise<PublishOutcome> {
    try {
      await this.send(rows, deadline);
      return { published: rows, failed: [] };
    } catch (error) {
      if (rows.length === 1 || deadline.expired || isBrokerUnavailable(error)) return failAll(rows, error as Error);
      this.logger.warn(`Batch of ${rows.length} failed (${(error as Error).message}); sending partition by partition`);
    }
    const outcome: PublishOutcome = { published: [], failed: [] };
    let brokerGone: Error | undefined;
    for (const group of await this.partitionGroups(rows, deadline)) {
      if (brokerGone) {
        outcome.failed.push(...failAll(group.rows, brokerGone).failed);
        continue;
      }
      if (group.unknown) {
        brokerGone = await this.isolateRows(group.rows, deadline, outcome);
        continue;
      }
      if (group.leader < 0) {
        outcome.failed.push(...failAll(group.rows, new PartitionWithoutLeader(group.name)).failed);
        continue;
      }
      try {
        await this.send(group.rows, deadline);
        outcome.published.push(...group.rows);
      } catch (error) {
        if (deadline.expired || isBrokerUnavailable(error)) {
          brokerGone = error as Error;
          outcome.failed.push(...failAll(group.rows, brokerGone).failed);
        } else if (group.rows.length === 1 || isPartitionUnavailable(error)) {
          outcome.failed.push(...failAll(group.rows, error as Error).failed);
        } else {
          brokerGone = await this.isolateRows(group.rows, deadline, outcome);
        }
      }
    }
    return outcome;
  }

  /** Row by row, stopping each aggregate at its first failure; returns the error that ended all sends, if any. */
  private async isolateRows(rows: OutboxMessage[], deadline: PublishDeadline, outcome: PublishOutcome): Promise<Error | undefined> {
    const blocked = new Set<string>();
    let brokerGone: Error | undefined;
    for (const row of rows) {
      const aggregate = `${row.aggregateType}/${row.aggregateId}`;
      if (blocked.has(aggregate)) continue;
      if (brokerGone) {
        outcome.failed.push({ row, error: brokerGone });
        blocked.add(aggregate);
        continue;
      }
      try {
        await this.send([row], deadline);
        outcome.published.push(row);
      } catch (error) {
        outcome.failed.push({ row, error: error as Error });
        blocked.add(aggregate);
        if (deadline.expired || isBrokerUnavailable(error)) brokerGone = error as Error;
      }
    }
    return brokerGone;
  }

  /**
   * The rows grouped by the partition kafkajs would send them to, from fresh metadata. When the
   * metadata cannot be read, one group of unknown partition: the rows are then isolated one by one.
   */
  private async partitionGroups(rows: OutboxMessage[], deadline: PublishDeadline): Promise<PartitionGroup[]> {
    let metadata: Map<string, PartitionMetadata[]>;
    try {
      metadata = await deadline.race(this.partitionMetadata([...new Set(rows.map((row) => row.topic))]));
    } catch (error) {
      this.logger.warn(`Partition metadata unavailable (${(error as Error).message}); isolating rows one by one`);
      return [{ name: 'unknown partition', leader: 0, rows, unknown: true }];
    }
    const groups = new Map<string, PartitionGroup>();
    for (const row of rows) {
      const partitions = metadata.get(row.topic) ?? [];
      const partition =
        partitions.length > 0 ? this.partitioner({ topic: row.topic, partitionMetadata: partitions, message: toKafkaMessage(row) }) : -1;
      const name = `${row.topic}[${partition}]`;
      const group = groups.get(name) ?? { name, leader: partitions.find((one) => one.partitionId === partition)?.leader ?? -1, rows: [] };
      group.rows.push(row);
      groups.set(name, group);
    }
    return [...groups.values()];
  }

  private async partitionMetadata(topics: string[]): Promise<Map<string, PartitionMetadata[]>> {
    this.admin ??= (async () => {
      const admin = this.kafka.admin({ retry: { retries: 1, initialRetryTime: 100 } });
      await admin.connect();
      return admin;
    })();
    try {
      const { topics: described } = await (await this.admin).fetchTopicMetadata({ topics });
      return new Map(described.map((topic) => [topic.name, [...topic.partitions].sort((a, b) => a.partitionId - b.partitionId)]));
    } catch (error) {
      const admin = this.admin;
      this.admin = undefined;
      void admin.then((one) => one.disconnect()).catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    const admin = this.admin;
    this.admin = undefined;
    await Promise.all([this.producer.close(), admin?.then((one) => one.disconnect()).catch(() => undefined)]);
  }
}

function failAll(rows: OutboxMessage[], error: Error): PublishOutcome {
  return { published: [], failed: rows.map((row) => ({ row, error })) };
}
