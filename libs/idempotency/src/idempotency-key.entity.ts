import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row per caller and client-supplied `Idempotency-Key`, written in the same transaction as the effect it
 * guards. The primary key, not an application check, decides which of two racing requests wins.
 */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKey {
  /** The caller's token subject: a key is unique per caller, so nobody can claim another's key. */
  @PrimaryColumn({ type: 'text' })
  principal: string;

  @PrimaryColumn({ type: 'text' })
  key: string;

  /** SHA-256 of method, path and canonical body: the same key with another request is a 422. */
  @Column({ name: 'request_fingerprint', type: 'text' })
  requestFingerprint: string;

  @Column({ name: 'response_status', type: 'int' })
  responseStatus: number;

  @Column({ name: 'response_body', type: 'json' })
  responseBody: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
