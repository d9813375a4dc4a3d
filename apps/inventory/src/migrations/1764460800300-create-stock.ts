import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateStock1764460800300 implements MigrationInterface {
  name = 'CreateStock1764460800300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE stock_items (
        sku text PRIMARY KEY,
        available int NOT NULL CHECK (available >= 0),
        reserved int NOT NULL DEFAULT 0 CHECK (reserved >= 0),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One reservation per order, enforced by the key: a second OrderCreated can never reserve twice.
    await queryRunner.query(`
      CREATE TABLE reservations (
        order_id uuid PRIMARY KEY,
        status text NOT NULL CHECK (status IN ('RESERVED', 'RELEASED')),
        items jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        released_at timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE reservations');
    await queryRunner.query('DROP TABLE stock_items');
  }
}
