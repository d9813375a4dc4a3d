import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Scopes `Idempotency-Key`s by caller: the key is unique per principal (the token's subject), no
 * longer globally, so a customer who sends `loyalty-accrual:<orderId>` first (with another body)
 * claims nothing of inventory's and cannot park its command with a 422 (issue #16). Rows written
 * before have no principal (''), which no token has: they replay to nobody and age out with the
 * retention cleanup. Apps list this class among their own migrations, after CreateIdempotencyKeys.
 */
export class ScopeIdempotencyKeysByPrincipal1764460800620 implements MigrationInterface {
  name = 'ScopeIdempotencyKeysByPrincipal1764460800620';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE idempotency_keys ADD COLUMN principal text NOT NULL DEFAULT ''`);
    await queryRunner.query('ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey');
    await queryRunner.query('ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (principal, key)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Keys two principals both used cannot become globally unique again: keep the oldest.
    await queryRunner.query(
      'DELETE FROM idempotency_keys a USING idempotency_keys b WHERE a.key = b.key AND (a.created_at, a.principal) > (b.created_at, b.principal)',
    );
    await queryRunner.query('ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey');
    await queryRunner.query('ALTER TABLE idempotency_keys DROP COLUMN principal');
    await queryRunner.query('ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (key)');
  }
}
