import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateCancelledOrders1764460800320 implements MigrationInterface {
  name = 'CreateCancelledOrders1764460800320';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Cancellations that found no reservation to release: an OrderCreated that arrives later (a
    // replayed dead letter, a redelivery after a rebalance) must then reserve nothing, or the cancelled order would hold stock for ever.
    await queryRunner.query(`
      CREATE TABLE cancelled_orders (
        order_id uuid PRIMARY KEY,
        cancelled_at timestamptz NOT NULL DEFAULT now(),
        cancel_message_id uuid NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE cancelled_orders');
  }
}
