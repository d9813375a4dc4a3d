import type { MigrationInterface, QueryRunner } from 'typeorm';
import { partitionExistingTable, type TableToPartition, unpartitionTable } from '@libs/database';

/** The columns of `outbox_messages`, in their order; `seq` unique only by its identity once partitioned. */
const columns = (seqConstraint: string) => `
  id uuid NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY ${seqConstraint},
  aggregate_type text NOT NULL,
  aggregate_id text NOT NULL,
  message_type text NOT NULL,
  topic text NOT NULL,
  key text NOT NULL,
  payload jsonb NOT NULL,
  headers jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  attempts int NOT NULL DEFAULT 0,
  last_error text,
  next_attempt_at timestamptz NOT NULL DEFAULT now()`;

// The indexes the relay, the retention and the metrics read, each partial on the rows it needs.
const indexes = [
  'CREATE INDEX outbox_messages_pending_idx ON outbox_messages (seq) WHERE published_at IS NULL',
  'CREATE INDEX outbox_messages_pending_aggregate_idx ON outbox_messages (aggregate_type, aggregate_id, seq) WHERE published_at IS NULL',
  'CREATE INDEX outbox_messages_published_at_idx ON outbox_messages (published_at) WHERE published_at IS NOT NULL',
  'CREATE INDEX outbox_messages_pending_retry_idx ON outbox_messages (next_attempt_at) WHERE published_at IS NULL',
];

/** How many days of partitions the migration creates after today's; the retention job keeps `OUTBOX_PARTITIONS_AHEAD_DAYS`. */
const DAYS_AHEAD = 3;

const outboxMessages: TableToPartition = {
  table: 'outbox_messages',
  key: 'id',
  // seq cannot stay UNIQUE: a unique constraint of a partitioned table must contain the partition key.
  createPartitioned: [`CREATE TABLE outbox_messages (${columns('')}, PRIMARY KEY (id)) PARTITION BY RANGE (id)`, ...indexes],
  createUnpartitioned: [`CREATE TABLE outbox_messages (${columns('UNIQUE')}, PRIMARY KEY (id))`, ...indexes],
  movedFirst: 'published_at IS NULL',
  identity: 'seq',
  daysAhead: DAYS_AHEAD,
};

/**
 * Turns `outbox_messages` into a table range-partitioned by the day of its UUIDv7 `id`, every row
 * kept (pending ones first), so retention drops a day whole instead of deleting rows
 * (docs/decisions/0020-retention-by-partitions.md). Apps that publish events list it after
 * {@link AddOutboxPendingRetryIndex1764460800410} and the growing tables' migrations.
 */
export class PartitionOutboxMessages1764460801000 implements MigrationInterface {
  name = 'PartitionOutboxMessages1764460801000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await partitionExistingTable(queryRunner, outboxMessages);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await unpartitionTable(queryRunner, outboxMessages);
  }
}
