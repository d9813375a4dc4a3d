/**
 * Layer `relaxed-commit`: the relay's transactions commit with `synchronous_commit = off`.
 *
 * - Changes: a relay commit does not wait for its WAL flush, a disk sync per transaction that is
 *   most of a commit's cost on a small machine.
 * - Costs: if Postgres itself crashes within the WAL writer's delay (200 ms by default), the marks of
 *   the last relay transactions are lost and their rows, already on Kafka, are published again with
 *   the same message-ids: what at-least-once already allows, and consumers dedupe. Nothing else
 *   depends on a relay commit (the outbox rows are written, and flushed, by the business transactions).
 * - Figure: one-row commits 0.85-2.8 ms with it on, 0.27-0.37 ms off (pgbench, two cores);
 *   see docs/decisions/0102-relaxed-commit.md and https://www.postgresql.org/docs/current/wal-async-commit.html.
 * - Off: `OUTBOX_RELAXED_COMMIT_ENABLED=false`; every relay commit then waits for its flush.
 */
import type { SpeedUpLayer } from '@libs/config';
import type { OutboxConfig } from '../outbox.config.js';

export const relaxedCommitLayer: SpeedUpLayer = {
  name: 'relaxed-commit',
  pattern: 'outbox',
  switch: 'OUTBOX_RELAXED_COMMIT_ENABLED',
  changes: "The relay's transactions commit without waiting for their WAL flush (synchronous_commit = off).",
  costs:
    'A Postgres crash may lose the marks of the last ~200 ms of relay commits: those rows are published again, and consumers dedupe them.',
  decision: 'docs/decisions/0102-relaxed-commit.md',
};

/** The statements the relay sends with `START TRANSACTION`: none with the layer off. */
export function relayTransactionSettings(config: Pick<OutboxConfig, 'OUTBOX_RELAXED_COMMIT_ENABLED'>): string[] {
  return config.OUTBOX_RELAXED_COMMIT_ENABLED ? ['SET LOCAL synchronous_commit = off'] : [];
}
