import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per (handler, message) that was processed and committed. */
@Entity({ name: 'inbox_messages' })
export class InboxMessage {
  @PrimaryColumn({ type: 'text' })
  consumer: string;

  @PrimaryColumn({ name: 'message_id', type: 'uuid' })
  messageId: string;

  @Column({ name: 'message_type', type: 'text' })
  messageType: string;

  @Column({ type: 'text' })
  topic: string;

  @Column({ type: 'int' })
  partition: number;

  @Column({ type: 'bigint' })
  offset: string;

  @Column({ name: 'payload_hash', type: 'text' })
  payloadHash: string;

  @Column({ name: 'received_at', type: 'timestamptz', insert: false, update: false })
  receivedAt: Date;
}
