import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Index for the retention cleanup (`created_at < now() - retention`): without it each batch scans
 * the whole table. Apps list this class among their own migrations, after CreateIdempotencyKeys.
 */
export class AddIdempotencyKeysCreatedAtIndex1764460800400 implements MigrationInterface {
  name = 'AddIdempotencyKeysCreatedAtIndex1764460800400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX idempotency_keys_created_at_idx');
  }
}
