import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { ReservedLine } from '@libs/contracts';

@Entity({ name: 'reservations' })
export class Reservation {
  @PrimaryColumn({ name: 'order_id', type: 'uuid' })
  orderId: string;

  @Column({ type: 'text' })
  status: 'RESERVED' | 'RELEASED';

  @Column({ type: 'jsonb' })
  items: ReservedLine[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'released_at', type: 'timestamptz', nullable: true })
  releasedAt: Date | null;

  /** The order's customer; null on reservations made before it was recorded. */
  @Column({ name: 'customer_id', type: 'text', nullable: true })
  customerId: string | null;

  /** Points the reservation's accrual credited (0: none), reversed on release; null when not recorded. */
  @Column({ name: 'loyalty_points', type: 'int', nullable: true })
  loyaltyPoints: number | null;
}
