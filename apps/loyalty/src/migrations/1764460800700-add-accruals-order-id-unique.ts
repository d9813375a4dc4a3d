import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `UNIQUE (order_id)` on accruals: one accrual per order, whatever key or caller asks, decided by
 * the database as for reversals. Without it two Idempotency-Keys from the service token credited one
 * order twice (a review found two keys from the service token crediting one order twice).
 *
 * Existing duplicates are not resolved here: which row is right (and whether points were already
 * spent or reversed) is a business decision, so the migration refuses, names how many orders are
 * affected and leaves the table as it was; docs/operations.md shows the query that finds them. The
 * constraint's index replaces `accruals_order_id_idx`, which served the reversal's lookup.
 */
export class AddAccrualsOrderIdUnique1764460800700 implements MigrationInterface {
  name = 'AddAccrualsOrderIdUnique1764460800700';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ orders, example }] = await queryRunner.query(
      `SELECT count(*)::int AS orders, min(order_id::text) AS example
         FROM (SELECT order_id FROM accruals GROUP BY order_id HAVING count(*) > 1) AS duplicated`,
    );
    if (orders > 0) {
      throw new Error(
        `accruals holds ${orders} order(s) credited more than once (e.g. ${example}): keep one accrual per order (docs/operations.md, "Accruals credited twice"), then migrate again`,
      );
    }
    await queryRunner.query('ALTER TABLE accruals ADD CONSTRAINT accruals_order_id_key UNIQUE (order_id)');
    await queryRunner.query('DROP INDEX accruals_order_id_idx');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX accruals_order_id_idx ON accruals (order_id)');
    await queryRunner.query('ALTER TABLE accruals DROP CONSTRAINT accruals_order_id_key');
  }
}
