const BROKER_WIDE_ERRORS = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSNumberOfRetriesExceeded',
  'KafkaJSLockTimeout',
  'KafkaJSMetadataNotLoaded',
]);

/**
 * True when an error says "the cluster cannot be reached" rather than "this message is bad". The
 * relay then backs the whole batch off instead of retrying each row alone, which would wait out
 * the client's retries once per row.
 */
export function isBrokerUnavailable(error: unknown): boolean {
  for (let current = error as { name?: string; cause?: unknown; originalError?: unknown } | undefined; current;) {
    const wrapped = (current.cause ?? current.originalError) as typeof current;
    // "Retries exhausted" says nothing by itself: on LEADER_NOT_AVAILABLE it is about one
    // partition, and calling that an outage stalled every healthy partition.
    // Judge it by what it wraps; only a bare one counts as the broker being gone.
    if (current.name === 'KafkaJSNumberOfRetriesExceeded' && wrapped) {
      current = wrapped;
      continue;
    }
    if (current.name && BROKER_WIDE_ERRORS.has(current.name)) return true;
    current = wrapped;
  }
  return false;
}
