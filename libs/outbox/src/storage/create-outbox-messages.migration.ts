import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns of `outbox_messages` read back whole and never filtered, joined or sorted on: see skipColumnStatistics. */
export const OUTBOX_UNFILTERED_COLUMNS = { outbox_messages: ['payload', 'headers'] } as const;

/** Creates `outbox_messages`. Apps that publish events list this class among their migrations. */
export class CreateOutboxMessages1764460800010 implements MigrationInterface {
  name = 'CreateOutboxMessages1764460800010';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE outbox_messages (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
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
        next_attempt_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The relay only ever scans pending rows; published ones wait for cleanup and cost nothing here.
    await queryRunner.query('CREATE INDEX outbox_messages_pending_idx ON outbox_messages (seq) WHERE published_at IS NULL');
    await queryRunner.query(
      'CREATE INDEX outbox_messages_pending_aggregate_idx ON outbox_messages (aggregate_type, aggregate_id, seq) WHERE published_at IS NULL',
    );
    await queryRunner.query(
      'CREATE INDEX outbox_messages_published_at_idx ON outbox_messages (published_at) WHERE published_at IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE outbox_messages');
  }
}
