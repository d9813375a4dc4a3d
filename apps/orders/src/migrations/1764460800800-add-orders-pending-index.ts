import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The orders still PENDING, indexed apart: the load shedding counts them on a timer (up to its
 * bound), which must cost the backlog's size, not the table's. Small: an order leaves it when it
 * becomes final.
 */
export class AddOrdersPendingIndex1764460800800 implements MigrationInterface {
  name = 'AddOrdersPendingIndex1764460800800';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE INDEX orders_pending_created_at_idx ON orders (created_at) WHERE status = 'PENDING'");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX orders_pending_created_at_idx');
  }
}
