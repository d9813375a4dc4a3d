import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stores each loyalty command as the request the dispatcher sends, `path` and JSON `body`, so that
 * `@app/commands` can send it without knowing loyalty.
 *
 * The accrual's own columns stay, for operators (`npm run ops -- loyalty parked`), tests and the
 * chaos checker, and a trigger keeps both forms of a row in step: a row written with a body gets
 * its columns from the body, and a row written the old way (columns, no body) gets its request
 * built from them. Why not generated columns: during a rolling deploy, replicas still running the
 * code from before this migration insert the old way, and their commands must be sent too (expand
 * now; dropping the old form is a later migration, once no such writer is left).
 */
export class StoreLoyaltyCommandsAsRequests1764460800350 implements MigrationInterface {
  name = 'StoreLoyaltyCommandsAsRequests1764460800350';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE loyalty_commands ADD COLUMN path text, ADD COLUMN body jsonb');
    await queryRunner.query(
      "UPDATE loyalty_commands SET path = '/accruals', body = jsonb_build_object('customerId', customer_id, 'orderId', order_id, 'points', points)",
    );
    // BEFORE triggers run before NOT NULL and CHECK: an old-style insert is completed, then checked.
    await queryRunner.query('ALTER TABLE loyalty_commands ALTER COLUMN path SET NOT NULL, ALTER COLUMN body SET NOT NULL');
    await queryRunner.query(`
      CREATE FUNCTION loyalty_commands_both_forms() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.body IS NULL THEN
          NEW.path := coalesce(NEW.path, '/accruals');
          NEW.body := jsonb_build_object('customerId', NEW.customer_id, 'orderId', NEW.order_id, 'points', NEW.points);
        ELSE
          NEW.customer_id := NEW.body->>'customerId';
          NEW.order_id := (NEW.body->>'orderId')::uuid;
          NEW.points := (NEW.body->>'points')::int;
        END IF;
        RETURN NEW;
      END $$`);
    await queryRunner.query(
      'CREATE TRIGGER loyalty_commands_both_forms BEFORE INSERT OR UPDATE OF body ON loyalty_commands FOR EACH ROW EXECUTE FUNCTION loyalty_commands_both_forms()',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER loyalty_commands_both_forms ON loyalty_commands');
    await queryRunner.query('DROP FUNCTION loyalty_commands_both_forms()');
    await queryRunner.query('ALTER TABLE loyalty_commands DROP COLUMN path, DROP COLUMN body');
  }
}
