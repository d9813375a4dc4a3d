import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The price list orders prices every line from (a client-set `unitPriceCents` let anyone
 * order at any price and earn the points of it). The bound is the contract's
 * (`OrderLimits.unitPriceCentsMax`), so a priced line always fits an `OrderCreated`.
 */
export class CreateProducts1764460800420 implements MigrationInterface {
  name = 'CreateProducts1764460800420';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE products (
        sku text PRIMARY KEY,
        name text,
        unit_price_cents bigint NOT NULL CHECK (unit_price_cents BETWEEN 0 AND 100000000),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE products');
  }
}
