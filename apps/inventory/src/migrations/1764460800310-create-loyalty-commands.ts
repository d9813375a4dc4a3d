import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateLoyaltyCommands1764460800310 implements MigrationInterface {
  name = 'CreateLoyaltyCommands1764460800310';

  async up(queryRunner: QueryRunner): Promise<void> {
    // id is the business operation id (loyalty-accrual:<orderId>), sent as the Idempotency-Key.
    await queryRunner.query(`
      CREATE TABLE loyalty_commands (
        id text PRIMARY KEY,
        customer_id text NOT NULL,
        order_id uuid NOT NULL,
        points int NOT NULL CHECK (points > 0),
        status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DONE', 'PARKED')),
        attempts int NOT NULL DEFAULT 0,
        last_error text,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
    await queryRunner.query("CREATE INDEX loyalty_commands_due_idx ON loyalty_commands (next_attempt_at) WHERE status = 'PENDING'");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE loyalty_commands');
  }
}
