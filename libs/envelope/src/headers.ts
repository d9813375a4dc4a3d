/** Kafka header names of the message envelope; the value is the event payload as JSON. */
export const Headers = {
  /** UUID of the outbox row: stable across republishing, the consumer's deduplication key. */
  messageId: 'message-id',
  messageType: 'message-type',
  schemaVersion: 'schema-version',
  aggregateId: 'aggregate-id',
  occurredAt: 'occurred-at',
  correlationId: 'correlation-id',
  causationId: 'causation-id',
  traceparent: 'traceparent',
  /** HMAC of the envelope (`v1=<base64>`), added by the relay when signing is configured. */
  signature: 'message-signature',
  /** Id of the key that made `message-signature`, so keys can rotate. */
  signatureKeyId: 'message-signature-key-id',
  /**
   * Set by the consumer's gzip codec on a placeholder record that stands for a batch it refused to
   * inflate (over its byte limit): the inbox dead-letters it as a stub. Value: what was refused.
   */
  inflationRefused: 'kafka-inflation-refused',
} as const;

/** Headers added when a message is dead-lettered: why, after how many attempts, and from where. */
/** What every dead-letter header begins with; only the dead-letter publisher writes such headers. */
export const DEAD_LETTER_HEADER_PREFIX = 'dlq-';

export const DeadLetterHeaders = {
  error: 'dlq-error',
  reason: 'dlq-reason',
  attempts: 'dlq-attempts',
  consumer: 'dlq-consumer',
  originalTopic: 'dlq-original-topic',
  originalPartition: 'dlq-original-partition',
  originalOffset: 'dlq-original-offset',
  deadLetteredAt: 'dlq-dead-lettered-at',
} as const;

/** Headers only a stub dead letter carries: the record was too large for the dead-letter topic, only its coordinates are kept. */
export const DeadLetterStubHeaders = {
  /** `true` on a stub. */
  stub: 'dlq-stub',
  /** Bytes of the original record (key, value and headers) that the stub stands for. */
  originalSize: 'dlq-original-size',
} as const;
