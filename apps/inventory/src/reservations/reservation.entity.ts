import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { ReservedLine } from '@app/contracts';

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
}
