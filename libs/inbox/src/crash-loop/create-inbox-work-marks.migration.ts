import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Creates `inbox_work_marks`: one row per (consumer, topic, partition), the offsets a consumer
 * process has in work and how many processes died with them in work (see crash-loop.breaker.ts).
 * Apps that consume events list this class among their migrations, beside the inbox's own. The
 * table never grows past one row per partition a consumer ever owned, so it needs no retention.
 */
export class CreateInboxWorkMarks1764460800025 implements MigrationInterface {
  name = 'CreateInboxWorkMarks1764460800025';

  async up(queryRunner: QueryRunner): Promise<void> {
    // fillfactor 50: every batch updates its partition's row twice; room on the page keeps those
    // updates HOT (no index entry written), as no indexed column changes.
    await queryRunner.query(`
      CREATE TABLE inbox_work_marks (
        consumer text NOT NULL,
        topic text NOT NULL,
        partition int NOT NULL,
        first_offset bigint,
        last_offset bigint,
        in_work boolean NOT NULL DEFAULT false,
        deaths int NOT NULL DEFAULT 0,
        marked_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, topic, partition)
      ) WITH (fillfactor = 50)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE inbox_work_marks');
  }
}
