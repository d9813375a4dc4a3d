import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns of `idempotency_keys` read back whole and never filtered, joined or sorted on: see skipColumnStatistics. */
export const IDEMPOTENCY_UNFILTERED_COLUMNS = { idempotency_keys: ['request_fingerprint', 'response_body'] } as const;

/** Creates `idempotency_keys`. Apps list this class among their own migrations. */
export class CreateIdempotencyKeys1764460800000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1764460800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        key text PRIMARY KEY,
        request_fingerprint text NOT NULL,
        response_status int NOT NULL,
        response_body json NOT NULL, -- json, not jsonb: a replay returns the body byte for byte, key order included
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE idempotency_keys');
  }
}
