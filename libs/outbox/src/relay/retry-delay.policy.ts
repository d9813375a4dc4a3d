import { retryDelayMs as exponentialDelayMs } from '@libs/backoff';
import type { OutboxMessage } from '../storage/outbox-message.entity.js';
import type { OutboxConfig } from '../outbox.config.js';
import { isBrokerUnavailable } from '../transport/broker-unavailable.error.js';
import { isPartitionUnavailable } from '../transport/partition-unavailable.error.js';
import { isPublishDeadlineExceeded } from '../transport/publish.deadline.js';

/**
 * How long a row that failed to publish waits before its next attempt: exponential with jitter up
 * to `OUTBOX_RETRY_MAX_MS`. When the error says the partition or the cluster is unavailable (a
 * leader change, a dead broker not yet fenced, too few in-sync replicas, no answer before the
 * publish deadline), at most `OUTBOX_UNAVAILABLE_RETRY_MAX_MS`: that state ends when the controller
 * fences the broker, and a row must not then wait out the backoff it built up while the leader was
 * gone (a stall of ~20 s after a leader kill otherwise).
 */
export function retryDelayMs(row: OutboxMessage, error: Error, config: OutboxConfig): number {
  const transient = isPartitionUnavailable(error) || isBrokerUnavailable(error) || isPublishDeadlineExceeded(error);
  const max = transient ? Math.min(config.OUTBOX_UNAVAILABLE_RETRY_MAX_MS, config.OUTBOX_RETRY_MAX_MS) : config.OUTBOX_RETRY_MAX_MS;
  return exponentialDelayMs(row.attempts + 1, config.OUTBOX_RETRY_BASE_MS, max);
}
