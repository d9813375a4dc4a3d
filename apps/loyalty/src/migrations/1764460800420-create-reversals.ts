import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reversals: points taken back when an order's reservation was released by a cancel, so a balance holds only what standing orders earned.
 * `UNIQUE (order_id)`: at most one reversal per order, whatever key or caller asks, decided by
 * the database (two concurrent requests for one order: the second waits on the index, then finds
 * the first). A customer's balance is the sum of accruals minus the sum of reversals.
 */
export class CreateReversals1764460800420 implements MigrationInterface {
  name = 'CreateReversals1764460800420';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE reversals (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        customer_id text NOT NULL,
        order_id uuid NOT NULL,
        points int NOT NULL CHECK (points > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT reversals_order_id_key UNIQUE (order_id)
      )`);
    await queryRunner.query('CREATE INDEX reversals_customer_id_idx ON reversals (customer_id)');
    // The reversal looks up the order's accrual; the balance sums a customer's (accruals_customer_id_idx).
    await queryRunner.query('CREATE INDEX accruals_order_id_idx ON accruals (order_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX accruals_order_id_idx');
    await queryRunner.query('DROP TABLE reversals');
  }
}
