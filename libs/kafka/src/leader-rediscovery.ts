import { createRequire } from 'node:module';

/** kafkajs' cluster, the one call this workaround makes on it. */
interface KafkaCluster {
  refreshMetadata(): Promise<void>;
}

/** A kafkajs 2.2.4 ConsumerGroup, the part of it this workaround reads. */
interface FetchingGroup {
  cluster: KafkaCluster;
}

interface ConsumerGroupPrototype {
  recoverFromFetch(this: FetchingGroup, error: Error): Promise<void>;
}

/**
 * Errors of a link to one broker, not of the request: the broker died (refused, reset) or went
 * silent (a request timeout, as under a network partition). kafkajs' own `KafkaJSConnectionClosedError`
 * is a connection error too, which it already handles by dropping the broker; it is left to kafkajs.
 */
const LINK_ERRORS = new Set(['KafkaJSConnectionError', 'KafkaJSRequestTimeoutError']);

let installed = false;

/**
 * Makes a kafkajs 2.2.4 consumer refresh its cluster metadata when a fetch fails because the link to
 * a broker is gone, as the Java client does (a disconnect requests a metadata update), so that its
 * next fetch goes to the partition's new leader.
 *
 * Unpatched, kafkajs rethrows the connection error to the consumer's runner, which backs off and
 * fetches again from the leader its metadata names: the dead one, until the metadata grows older
 * than `metadataMaxAge` (30 s here) or a rejoin happens to refresh it (kafkajs#950). Measured in
 * test/kafka-cluster/coordinator-kill.e2e-spec.ts: one inventory replica kept fetching from the
 * killed node every second for 2 s after its partitions had new leaders, and the slowest order
 * was answered 1.5-5.2 s after the brokers' failover (nine runs; 1.1-3.1 s in five runs patched).
 *
 * Patched, the error still goes to the runner (its backoff spaces the retries), but the metadata
 * is fresh first: once the controller has elected the successor, the next fetch goes there. A
 * refresh that fails too (no broker answers) changes nothing: the runner retries as before.
 * Installed once per process by `prepareKafkajs`; kafkajs is pinned to 2.2.4 in package.json.
 */
export function installLeaderRediscovery(): void {
  if (installed) return;
  const load = createRequire(import.meta.url);
  const ConsumerGroup = load('kafkajs/src/consumer/consumerGroup.js') as { prototype: ConsumerGroupPrototype };
  const recoverFromFetch = ConsumerGroup.prototype.recoverFromFetch;
  ConsumerGroup.prototype.recoverFromFetch = async function (this: FetchingGroup, error: Error) {
    if (!LINK_ERRORS.has(error.name)) return recoverFromFetch.call(this, error);
    try {
      await this.cluster.refreshMetadata();
    } catch {
      // No broker answered either: the retry that follows tries again, with the metadata it has.
    }
    throw error;
  };
  installed = true;
}
