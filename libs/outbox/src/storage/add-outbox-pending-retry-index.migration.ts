import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes pending rows by retry time, so the relay finds the aggregates that wait out a retry delay
 * by reading only those rows. Without it, each batch read found them by scanning the whole table,
 * published rows included (seen in the query plan: most of a read's time, growing with
 * retention). Apps that publish events list this class after {@link CreateOutboxMessages1764460800010}.
 */
export class AddOutboxPendingRetryIndex1764460800410 implements MigrationInterface {
  name = 'AddOutboxPendingRetryIndex1764460800410';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS outbox_messages_pending_retry_idx ON outbox_messages (next_attempt_at) WHERE published_at IS NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS outbox_messages_pending_retry_idx');
  }
}
