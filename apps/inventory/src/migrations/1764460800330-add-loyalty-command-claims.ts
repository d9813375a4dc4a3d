import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Adds `claim_id`, the fencing token of a dispatcher's lease on a command (issue 7, point 6).
 *
 * The lease itself is `next_attempt_at`: claiming a command pushes it past the time its call can
 * take, so an expired lease is simply a due row again and the existing due index serves both.
 * `claim_id` says WHICH claim owns it: a replica whose lease ran out (a stalled process) must not
 * reschedule or park a command that another replica has claimed since.
 */
export class AddLoyaltyCommandClaims1764460800330 implements MigrationInterface {
  name = 'AddLoyaltyCommandClaims1764460800330';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE loyalty_commands ADD COLUMN claim_id uuid');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE loyalty_commands DROP COLUMN claim_id');
  }
}
