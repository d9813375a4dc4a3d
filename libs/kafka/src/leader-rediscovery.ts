import { createRequire } from 'node:module';
import { setTimeout } from 'node:timers/promises';
import { KAFKA_CLIENT_TIMING_DEFAULTS } from './kafka-client-timing.js';

/** kafkajs' cluster: the one call this workaround makes on it, and when its metadata was last refreshed. */
interface KafkaCluster {
  refreshMetadata(): Promise<void>;
  brokerPool?: {
    /** When the metadata expires: set to now + `metadataMaxAge` by each refresh, null once a broker was dropped. */
    metadataExpireAt: number | null;
    metadataMaxAge: number;
  };
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

/**
 * How long a fetcher whose broker is gone waits before it fetches again (with the metadata just
 * refreshed): kafkajs' first retry backoff, so a dead broker costs a few requests a second per
 * consumer while it is being fenced.
 */
const LINK_RETRY_PAUSE_MS = KAFKA_CLIENT_TIMING_DEFAULTS.retryInitialMs;

let installed = false;

/**
 * Whether the metadata was refreshed within the last pause. kafkajs refreshes it itself when it
 * cannot connect to the broker a fetch goes to (`Cluster.findBroker`), just before the error reaches
 * {@link installLeaderRediscovery}'s patch, and one consumer's fetchers share their cluster: a
 * second refresh would only repeat the Metadata request.
 */
function refreshedJustNow(cluster: KafkaCluster): boolean {
  const pool = cluster.brokerPool;
  if (pool?.metadataExpireAt == null) return false;
  return pool.metadataExpireAt - pool.metadataMaxAge > Date.now() - LINK_RETRY_PAUSE_MS;
}

/**
 * Makes a kafkajs 2.2.4 consumer refresh its cluster metadata when a fetch fails because the link to
 * a broker is gone, as the Java client does (a disconnect requests a metadata update), and fetch
 * again from that broker's partitions alone, so that its next fetch goes to the partition's new
 * leader while its other partitions go on.
 *
 * Unpatched, kafkajs rethrows the connection error to the consumer's runner, which backs off and
 * fetches again from the leader its metadata names: the dead one, until the metadata grows older
 * than `metadataMaxAge` (30 s here) or a rejoin happens to refresh it (kafkajs#950). Measured in
 * test/kafka-cluster/coordinator-kill.e2e-spec.ts: one inventory replica kept fetching from the
 * killed node every second for 2 s after its partitions had new leaders. And the runner's retry
 * stops every fetcher of the consumer (kafkajs runs one per broker and restarts them together), so
 * until the dead node was fenced, the partitions of live leaders were fetched only between backoffs
 * of up to `KAFKA_RETRY_MAX_MS`, and the first fetch after the election could come that late.
 *
 * Patched, the metadata is refreshed (unless kafkajs just did) and the fetch of that one broker ends empty after
 * {@link LINK_RETRY_PAUSE_MS}: kafkajs' fetcher for it fetches again, from the leaders the fresh
 * metadata names (a partition whose leader moved is fetched by the new leader's fetcher; once the
 * dead node leaves the metadata, kafkajs rebuilds its fetchers), and the others never stop. A
 * refresh that fails too (no broker answers) changes nothing: the fetcher tries again after the
 * pause. Installed once per process by `prepareKafkajs`; kafkajs is pinned to 2.2.4 in package.json.
 */
export function installLeaderRediscovery(): void {
  if (installed) return;
  const load = createRequire(import.meta.url);
  const ConsumerGroup = load('kafkajs/src/consumer/consumerGroup.js') as { prototype: ConsumerGroupPrototype };
  const recoverFromFetch = ConsumerGroup.prototype.recoverFromFetch;
  ConsumerGroup.prototype.recoverFromFetch = async function (this: FetchingGroup, error: Error) {
    if (!LINK_ERRORS.has(error.name)) return recoverFromFetch.call(this, error);
    try {
      if (!refreshedJustNow(this.cluster)) await this.cluster.refreshMetadata();
    } catch {
      // No broker answered either: the fetch after the pause tries again, with the metadata it has.
    }
    await setTimeout(LINK_RETRY_PAUSE_MS);
  };
  installed = true;
}
