import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Adds `traceparent`: the W3C context of the consumer span that wrote the command (issue 8, point
 * 1). The dispatcher sends it to loyalty, possibly much later and from another replica, so the
 * accrual joins the order's trace. Nullable: commands written before it have none.
 */
export class AddLoyaltyCommandTraceparent1764460800340 implements MigrationInterface {
  name = 'AddLoyaltyCommandTraceparent1764460800340';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE loyalty_commands ADD COLUMN traceparent text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE loyalty_commands DROP COLUMN traceparent');
  }
}
