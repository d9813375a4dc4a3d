import { registerCappedGzip } from './capped-gzip.codec.js';
import { installCoordinatorRediscovery } from './coordinator-rediscovery.js';
import { installLeaderRediscovery } from './leader-rediscovery.js';
import { installRequestQueueTimerFix } from './request-queue-timer.js';

/**
 * What kafkajs needs once per process before any client is built: the capped gzip codec and the
 * kafkajs workarounds. Both ways a process builds a kafkajs client (`createKafka` and the Nest
 * transport's `kafkaServerOptions`) call this, so a workaround added here covers both.
 */
export function prepareKafkajs(maxInflatedBatchBytes?: number): void {
  registerCappedGzip(maxInflatedBatchBytes);
  installRequestQueueTimerFix();
  installCoordinatorRediscovery();
  installLeaderRediscovery();
}
