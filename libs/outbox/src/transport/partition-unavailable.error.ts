import { PartitionsNotAcknowledged } from '@libs/kafka';

/**
 * Kafka error types that condemn a whole partition (its leader is missing, moving or short of
 * replicas), not one message: every row of that partition would fail the same way, so isolating
 * them one by one only multiplies the client's retries. Names from Kafka's protocol error table.
 */
const PARTITION_WIDE_TYPES = new Set([
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_FOR_PARTITION',
  'NOT_LEADER_OR_FOLLOWER',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'REPLICA_NOT_AVAILABLE',
  'FENCED_LEADER_EPOCH',
]);

/** True when `error` (or what it wraps) says a partition cannot take records right now. */
export function isPartitionUnavailable(error: unknown): boolean {
  for (
    let current = error as { name?: string; type?: string; message?: string; cause?: unknown; originalError?: unknown } | undefined;
    current;
  ) {
    if (current.type && PARTITION_WIDE_TYPES.has(current.type)) return true;
    // A partition kafkajs left unsent while its leader moved (sendBatchAcknowledged, @libs/kafka).
    if (current instanceof PartitionsNotAcknowledged) return true;
    // kafkajs' own check when the metadata names no leader (cluster.findLeaderForPartitions).
    if (current.name === 'KafkaJSError' && current.message === 'Invalid partition metadata') return true;
    current = (current.cause ?? current.originalError) as typeof current;
  }
  return false;
}

/** A partition the metadata shows without a leader: failed without a send, and judged like LEADER_NOT_AVAILABLE. */
export class PartitionWithoutLeader extends Error {
  override readonly name = 'OutboxPartitionWithoutLeader';
  readonly type = 'LEADER_NOT_AVAILABLE';

  constructor(partition: string) {
    super(`${partition} has no leader`);
  }
}
