import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two partial indexes, each holding only the rows one reader needs (issue 16):
 * - parked rows, for the `loyalty_commands_parked` gauge scraped every few seconds: an index-only
 *   count of the few rows a human must look at, instead of a scan of every command ever sent;
 * - acknowledged rows by `completed_at`, for the retention cleanup: each batch finds the oldest
 *   DONE rows without reading pending or parked ones.
 * (Pending rows already have `loyalty_commands_due_idx`, which the pending gauge uses.)
 */
export class IndexLoyaltyCommandsByStatus1764460800360 implements MigrationInterface {
  name = 'IndexLoyaltyCommandsByStatus1764460800360';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE INDEX loyalty_commands_parked_idx ON loyalty_commands (id) WHERE status = 'PARKED'");
    await queryRunner.query("CREATE INDEX loyalty_commands_done_idx ON loyalty_commands (completed_at) WHERE status = 'DONE'");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX loyalty_commands_done_idx');
    await queryRunner.query('DROP INDEX loyalty_commands_parked_idx');
  }
}
