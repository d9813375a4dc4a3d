import { Column, CreateDateColumn, Entity, OneToMany, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { OrderItem } from './order-item.entity.js';
import type { OrderStatus } from './order-status.js';

const bigintAsNumber = { to: (value: number) => value, from: (value: string) => Number(value) };

@Entity({ name: 'orders' })
export class Order {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'customer_id', type: 'text' })
  customerId: string;

  @Column({ type: 'text' })
  status: OrderStatus;

  @Column({ name: 'total_cents', type: 'bigint', transformer: bigintAsNumber })
  totalCents: number;

  @Column({ name: 'rejection_code', type: 'text', nullable: true })
  rejectionCode: string | null;

  @Column({ name: 'rejection_reason', type: 'text', nullable: true })
  rejectionReason: string | null;

  @OneToMany(() => OrderItem, (item) => item.order, { cascade: ['insert'] })
  items: OrderItem[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
