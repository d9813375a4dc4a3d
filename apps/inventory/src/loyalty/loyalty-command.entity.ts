import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type LoyaltyCommandStatus = 'PENDING' | 'DONE' | 'PARKED';

/**
 * A call to the loyalty service that must happen exactly once in effect. Written in the same
 * transaction as the reservation; sent (and re-sent) by the dispatcher with `id` as Idempotency-Key.
 */
@Entity({ name: 'loyalty_commands' })
export class LoyaltyCommand {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'customer_id', type: 'text' })
  customerId: string;

  @Column({ name: 'order_id', type: 'uuid' })
  orderId: string;

  @Column({ type: 'int' })
  points: number;

  @Column({ type: 'text', default: 'PENDING' })
  status: LoyaltyCommandStatus;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', insert: false })
  nextAttemptAt: Date;

  /** The dispatcher claim that holds the command until `nextAttemptAt`; null when unclaimed. */
  @Column({ name: 'claim_id', type: 'uuid', nullable: true, insert: false })
  claimId: string | null;

  /** W3C context of the span that wrote the command (the reservation's consumer span); the call continues it. */
  @Column({ type: 'text', nullable: true })
  traceparent: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}

/** The business operation id of an order's accrual: the same order always yields the same key. */
export function accrualOperationId(orderId: string): string {
  return `loyalty-accrual:${orderId}`;
}

/** One point per whole currency unit of the order total. */
export function pointsFor(totalCents: number): number {
  return Math.floor(totalCents / 100);
}
