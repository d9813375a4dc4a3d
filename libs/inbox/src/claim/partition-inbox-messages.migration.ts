import type { MigrationInterface, QueryRunner } from 'typeorm';
import { partitionExistingTable, type TableToPartition, unpartitionTable } from '@libs/database';

const createTable = (partitioning: string) => `
  CREATE TABLE inbox_messages (
    consumer text NOT NULL,
    message_id uuid NOT NULL,
    message_type text NOT NULL,
    topic text NOT NULL,
    partition int NOT NULL,
    "offset" bigint NOT NULL,
    payload_hash text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, message_id)
  ) ${partitioning}`;

/** How many days of partitions the migration creates after today's; the retention job keeps `INBOX_PARTITIONS_AHEAD_DAYS`. */
const DAYS_AHEAD = 3;

const inboxMessages: TableToPartition = {
  table: 'inbox_messages',
  // The primary key contains message_id, so it stays the one global deduplication.
  key: 'message_id',
  createPartitioned: [
    createTable('PARTITION BY RANGE (message_id)'),
    'CREATE INDEX inbox_messages_received_at_idx ON inbox_messages (received_at)',
  ],
  createUnpartitioned: [createTable(''), 'CREATE INDEX inbox_messages_received_at_idx ON inbox_messages (received_at)'],
  movedFirst: 'true',
  daysAhead: DAYS_AHEAD,
};

/**
 * Turns `inbox_messages` into a table range-partitioned by the day of its `message_id` (the
 * producers' UUIDv7 outbox ids), every row kept, so retention drops a day whole
 * (docs/decisions/0020-retention-by-partitions.md). A message id that is not time-ordered lands in
 * the default partition. Apps that consume events list it after the growing tables' migrations.
 */
export class PartitionInboxMessages1764460801010 implements MigrationInterface {
  name = 'PartitionInboxMessages1764460801010';

  async up(queryRunner: QueryRunner): Promise<void> {
    await partitionExistingTable(queryRunner, inboxMessages);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await unpartitionTable(queryRunner, inboxMessages);
  }
}
