import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAccruals1764460800100 implements MigrationInterface {
  name = 'CreateAccruals1764460800100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE accruals (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        customer_id text NOT NULL,
        order_id uuid NOT NULL,
        points int NOT NULL CHECK (points > 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX accruals_customer_id_idx ON accruals (customer_id, created_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE accruals');
  }
}
