import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keeps, with each cancellation that arrived before its order, the customers the cancels named: a
 * late `OrderCreated` is then rejected as cancelled only when its own customer is among them, so a
 * cancel for somebody else's order (a producer's bug, or a forgery) cancels nothing. An array, not
 * one value: until the order arrives, no cancel can be told real from false, and a false one that
 * came first must not hide the real one that came after. Null on rows from before this migration:
 * those stay cancelled whoever the order's customer is, as they were.
 */
export class AddCancelledOrdersCustomers1764460800450 implements MigrationInterface {
  name = 'AddCancelledOrdersCustomers1764460800450';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE cancelled_orders ADD COLUMN customer_ids text[]');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE cancelled_orders DROP COLUMN customer_ids');
  }
}
