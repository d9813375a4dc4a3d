import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Index for the per-caller quota (`IDEMPOTENCY_KEYS_PER_CALLER_MAX`): the store reads a caller's
 * newest keys of the window, newest first, from this index alone, instead of every key of the
 * caller. Apps list this class among their own migrations, after ScopeIdempotencyKeysByPrincipal.
 */
export class AddIdempotencyKeysPrincipalCreatedAtIndex1764460800710 implements MigrationInterface {
  name = 'AddIdempotencyKeysPrincipalCreatedAtIndex1764460800710';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX idempotency_keys_principal_created_at_idx ON idempotency_keys (principal, created_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX idempotency_keys_principal_created_at_idx');
  }
}
