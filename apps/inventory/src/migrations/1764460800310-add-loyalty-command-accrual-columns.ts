import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Inventory's own columns on its commands table (created by `@libs/commands`, see
 * `createCommandsTable`): the accrual's customer, order and points, read from the request body
 * the library stores, for operators (`npm run ops -- loyalty parked`), tests and the chaos checker.
 * Generated, so they cannot disagree with what is sent; `points > 0` refuses a command that would
 * credit nothing (the writer never builds one: a bug, not a case).
 */
export class AddLoyaltyCommandAccrualColumns1764460800310 implements MigrationInterface {
  name = 'AddLoyaltyCommandAccrualColumns1764460800310';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE loyalty_commands
        ADD COLUMN customer_id text GENERATED ALWAYS AS (body->>'customerId') STORED,
        ADD COLUMN order_id uuid GENERATED ALWAYS AS ((body->>'orderId')::uuid) STORED,
        ADD COLUMN points int GENERATED ALWAYS AS ((body->>'points')::int) STORED CHECK (points > 0)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE loyalty_commands DROP COLUMN customer_id, DROP COLUMN order_id, DROP COLUMN points');
  }
}
