import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keeps on each reservation the customer and the loyalty points its accrual credited (what a cancel must take back):
 * a cancel that releases the reservation reverses exactly those points, without asking loyalty
 * and without the accrual's command row, which an operator or a retention job may have deleted.
 * Nullable: a reservation made before this migration (or by a replica still on the code before it,
 * during a rolling deploy) has none, and its release falls back to the accrual command's body.
 */
export class AddReservationLoyaltyPoints1764460800430 implements MigrationInterface {
  name = 'AddReservationLoyaltyPoints1764460800430';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE reservations ADD COLUMN customer_id text, ADD COLUMN loyalty_points int CHECK (loyalty_points >= 0)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE reservations DROP COLUMN customer_id, DROP COLUMN loyalty_points');
  }
}
