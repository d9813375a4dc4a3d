import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOrders1764460800200 implements MigrationInterface {
  name = 'CreateOrders1764460800200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE orders (
        id uuid PRIMARY KEY,
        customer_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING', 'RESERVED', 'REJECTED', 'CANCELLED')),
        total_cents bigint NOT NULL CHECK (total_cents >= 0),
        rejection_code text,
        rejection_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE order_items (
        order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        line_no int NOT NULL,
        sku text NOT NULL,
        quantity int NOT NULL CHECK (quantity BETWEEN 1 AND 1000),
        unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
        PRIMARY KEY (order_id, line_no)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE order_items');
    await queryRunner.query('DROP TABLE orders');
  }
}
