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
  for (let current = error as { name?: string; cause?: unknown; originalError?: unknown } | undefined; current; ) {
    if (current.name && BROKER_WIDE_ERRORS.has(current.name)) return true;
    current = (current.cause ?? current.originalError) as typeof current;
  }
  return false;
}
