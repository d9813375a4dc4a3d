import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stores each loyalty command as the request the dispatcher sends, `path` and JSON `body`, so that
 * `@app/commands` can send it without knowing loyalty (issue 9: outgoing commands as a library).
 *
 * The accrual's fields stay columns, for operators (`npm run ops -- loyalty parked`), tests and
 * the chaos checker, but are now generated from the body: they can never disagree with what was
 * sent. Their NOT NULL and `points > 0` constraints stay.
 */
export class StoreLoyaltyCommandsAsRequests1764460800350 implements MigrationInterface {
  name = 'StoreLoyaltyCommandsAsRequests1764460800350';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE loyalty_commands ADD COLUMN path text, ADD COLUMN body jsonb');
    await queryRunner.query(
      "UPDATE loyalty_commands SET path = '/accruals', body = jsonb_build_object('customerId', customer_id, 'orderId', order_id, 'points', points)",
    );
    await queryRunner.query(`
      ALTER TABLE loyalty_commands
        ALTER COLUMN path SET NOT NULL,
        ALTER COLUMN body SET NOT NULL,
        DROP COLUMN customer_id,
        DROP COLUMN order_id,
        DROP COLUMN points`);
    await queryRunner.query(`
      ALTER TABLE loyalty_commands
        ADD COLUMN customer_id text NOT NULL GENERATED ALWAYS AS (body->>'customerId') STORED,
        ADD COLUMN order_id uuid NOT NULL GENERATED ALWAYS AS ((body->>'orderId')::uuid) STORED,
        ADD COLUMN points int NOT NULL GENERATED ALWAYS AS ((body->>'points')::int) STORED CHECK (points > 0)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE loyalty_commands RENAME COLUMN customer_id TO generated_customer_id');
    await queryRunner.query('ALTER TABLE loyalty_commands RENAME COLUMN order_id TO generated_order_id');
    await queryRunner.query('ALTER TABLE loyalty_commands RENAME COLUMN points TO generated_points');
    await queryRunner.query(
      'ALTER TABLE loyalty_commands ADD COLUMN customer_id text, ADD COLUMN order_id uuid, ADD COLUMN points int CHECK (points > 0)',
    );
    await queryRunner.query(
      'UPDATE loyalty_commands SET customer_id = generated_customer_id, order_id = generated_order_id, points = generated_points',
    );
    await queryRunner.query(`
      ALTER TABLE loyalty_commands
        ALTER COLUMN customer_id SET NOT NULL,
        ALTER COLUMN order_id SET NOT NULL,
        ALTER COLUMN points SET NOT NULL,
        DROP COLUMN generated_customer_id,
        DROP COLUMN generated_order_id,
        DROP COLUMN generated_points,
        DROP COLUMN path,
        DROP COLUMN body`);
  }
}
