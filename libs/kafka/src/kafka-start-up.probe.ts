import { logLevel } from 'kafkajs';
import { createKafka, type KafkaClientOptions } from './kafka.factory.js';

/**
 * One quick try per call: the waiting loop at start-up ({@link probeKafka}'s caller) paces the
 * attempts and says what it waits for, so the client's own retries (about 17 s with the failover
 * backoff) would only hide a refused connection for longer.
 */
const ONE_RETRY = { retries: 1, initialRetryTime: 100, maxRetryTime: 200 };

/**
 * Resolves when the cluster answers a metadata request with these client options (brokers, TLS,
 * SASL), and throws what the client met otherwise. Logs nothing: a broker that is down is what
 * the caller expects while it waits, and it reports that itself.
 */
export async function probeKafka(options: KafkaClientOptions): Promise<void> {
  const admin = createKafka({ ...options, logLevel: logLevel.NOTHING, retry: ONE_RETRY }).admin();
  try {
    await admin.connect();
    await admin.describeCluster();
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/**
 * The reason waiting cannot fix, when `error` is one: the broker refused the SASL credentials.
 * A refused connection, a timeout or a broker that is still electing leaders is worth waiting
 * for; a wrong password stays wrong however long the process waits.
 */
export function kafkaCredentialsRefused(error: unknown): string | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause.name === 'KafkaJSSASLAuthenticationError') {
      return `KAFKA_SASL_PASSWORD: the broker refused the credentials of KAFKA_SASL_USERNAME (${cause.message}); check both and KAFKA_SASL_MECHANISM`;
    }
  }
  return undefined;
}
