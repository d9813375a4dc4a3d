import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An event waiting to be published, written in the same transaction as the change it describes.
 * `id` becomes the Kafka `message-id` header: stable across every republish, so consumers dedupe.
 */
@Entity({ name: 'outbox_messages' })
export class OutboxMessage {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** Commit-ordered within one aggregate (writers lock the aggregate), so it orders publishing. */
  @Column({ type: 'bigint', insert: false, update: false })
  seq: string;

  @Column({ name: 'aggregate_type', type: 'text' })
  aggregateType: string;

  @Column({ name: 'aggregate_id', type: 'text' })
  aggregateId: string;

  @Column({ name: 'message_type', type: 'text' })
  messageType: string;

  @Column({ type: 'text' })
  topic: string;

  @Column({ type: 'text' })
  key: string;

  @Column({ type: 'jsonb' })
  payload: unknown;

  @Column({ type: 'jsonb' })
  headers: Record<string, string>;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt: Date | null;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', insert: false })
  nextAttemptAt: Date;
}
