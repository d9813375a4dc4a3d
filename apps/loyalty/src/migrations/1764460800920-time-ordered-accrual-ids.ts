import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accruals and reversals get their ids from the database, as time-ordered UUIDs (version 7, the
 * same layout as `timeOrderedUuid()` mints in the apps): a random id lands anywhere in the primary
 * key's index, and the pages every insert dirties grow with the table (see time-ordered-uuid.ts).
 * Postgres 15 has no `uuidv7()`: `time_ordered_uuid()` writes the millisecond over the first six
 * bytes of `gen_random_uuid()` and turns its version 4 into 7 (bits 52 and 53 of the 16 bytes).
 * Existing ids are kept: they stay valid, only new rows are ordered.
 */
export class TimeOrderedAccrualIds1764460800920 implements MigrationInterface {
  name = 'TimeOrderedAccrualIds1764460800920';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION time_ordered_uuid() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
        SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
          PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
          52, 1), 53, 1), 'hex')::uuid
      $$`);
    await queryRunner.query('ALTER TABLE accruals ALTER COLUMN id SET DEFAULT time_ordered_uuid()');
    await queryRunner.query('ALTER TABLE reversals ALTER COLUMN id SET DEFAULT time_ordered_uuid()');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE reversals ALTER COLUMN id SET DEFAULT gen_random_uuid()');
    await queryRunner.query('ALTER TABLE accruals ALTER COLUMN id SET DEFAULT gen_random_uuid()');
    await queryRunner.query('DROP FUNCTION time_ordered_uuid()');
  }
}
