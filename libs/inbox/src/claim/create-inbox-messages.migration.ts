import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns of `inbox_messages` read back whole and never filtered, joined or sorted on: see skipColumnStatistics. */
export const INBOX_UNFILTERED_COLUMNS = { inbox_messages: ['payload_hash'] } as const;

/** Creates `inbox_messages`. Apps that consume events list this class among their migrations. */
export class CreateInboxMessages1764460800020 implements MigrationInterface {
  name = 'CreateInboxMessages1764460800020';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The primary key is the deduplication: a second insert of (consumer, message_id) waits for the
    // first transaction, then conflicts. No application-level check could be race-free like this.
    await queryRunner.query(`
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
      )`);
    await queryRunner.query('CREATE INDEX inbox_messages_received_at_idx ON inbox_messages (received_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE inbox_messages');
  }
}
