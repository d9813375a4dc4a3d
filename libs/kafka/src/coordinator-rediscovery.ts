import { createRequire } from 'node:module';

/** A kafkajs 2.2.4 broker handle, the part of it this workaround reads. */
interface CoordinatorBroker {
  nodeId: number;
  isConnected(): boolean;
}

/** kafkajs' cluster, the one call this workaround makes on it. */
interface KafkaCluster {
  findGroupCoordinator(options: { groupId: string }): Promise<CoordinatorBroker>;
}

/** What kafkajs' ConsumerGroup and OffsetManager share: a group id and the coordinator they send to. */
interface CoordinatorHolder {
  cluster: KafkaCluster;
  groupId: string;
  coordinator: CoordinatorBroker | undefined;
}

interface ConsumerGroupPrototype {
  heartbeat(this: CoordinatorHolder, options: { interval: number }): Promise<void>;
}

interface OffsetManagerPrototype {
  getCoordinator(this: CoordinatorHolder): Promise<CoordinatorBroker>;
}

/**
 * The coordinator to send a group request to: the one known while its connection is up, else the
 * one the cluster names now (FindCoordinator, retried by kafkajs while no broker coordinates the
 * group yet, as during an election).
 */
async function liveCoordinator(holder: CoordinatorHolder): Promise<CoordinatorBroker> {
  if (holder.coordinator?.isConnected()) return holder.coordinator;
  holder.coordinator = await holder.cluster.findGroupCoordinator({ groupId: holder.groupId });
  return holder.coordinator;
}

/** The consumer groups with a lookup under way in the background, so that beats in a row start one. */
const lookingUp = new WeakSet<CoordinatorHolder>();

/**
 * Starts a lookup of the group's coordinator unless one is under way; it sets the coordinator the
 * next heartbeat goes to. A lookup that fails (no coordinator elected within kafkajs' retries)
 * leaves the next beat to start another.
 */
function rediscoverInBackground(holder: CoordinatorHolder): void {
  if (lookingUp.has(holder)) return;
  lookingUp.add(holder);
  liveCoordinator(holder)
    .catch(() => undefined)
    .finally(() => lookingUp.delete(holder));
}

let installed = false;

/**
 * Makes kafkajs 2.2.4 look the group coordinator up again when the connection to it is gone, as
 * the Java client does (it marks the coordinator unknown on a disconnect; KAFKA-17293 for its new
 * consumer).
 *
 * Unpatched, a consumer whose coordinator was SIGKILLed keeps sending heartbeats and offset
 * commits to the dead node's id: every attempt is a refused connection (or "Broker N not found
 * in the cached metadata" once the node is fenced), while another broker has long been elected
 * coordinator. The consumer recovers only when the dead node returns and answers NOT_COORDINATOR,
 * or when its retries run out and it crashes; a crashed consumer rejoins as a new member, and the
 * new coordinator holds the rebalance until the old member's session expires. Measured in
 * test/kafka-cluster/coordinator-kill.e2e-spec.ts: the coordinator moved 2.1 s after the kill, the
 * consumers consumed again after 8.2 s; on a loaded CI machine orders stalled for 13 s.
 *
 * Patched, the heartbeat (ConsumerGroup) and the commits (OffsetManager) check the connection first
 * and find the coordinator again when it is down: the member keeps its id and generation, commits
 * on the new coordinator, and rejoins there if that one asks for a rebalance.
 *
 * The heartbeat does not wait for that lookup: kafkajs beats from the fetch loop (after every batch
 * and every empty fetch), so a beat that waited for an election held every partition of the
 * consumer, though their leaders were alive, for the seconds until a new coordinator was elected
 * (measured in test/kafka-cluster/leader-kill.e2e-spec.ts, the killed node leading a partition and
 * coordinating the group: no fetch for 4.9 s). While the coordinator is unknown a beat is skipped
 * and the lookup runs in the background, as the Java client's heartbeat thread does; there is no
 * coordinator to beat to, and the new one counts the member's session from when it took the group
 * over. Commits wait for the lookup, off the fetch loop (the inbox commits in the background).
 *
 * Installed once per process, by `createKafka` and `kafkaServerOptions`. kafkajs is pinned to
 * 2.2.4 in package.json: a new version must be checked against this before the pin moves.
 */
export function installCoordinatorRediscovery(): void {
  if (installed) return;
  const load = createRequire(import.meta.url);
  const ConsumerGroup = load('kafkajs/src/consumer/consumerGroup.js') as { prototype: ConsumerGroupPrototype };
  const OffsetManager = load('kafkajs/src/consumer/offsetManager/index.js') as { prototype: OffsetManagerPrototype };

  const heartbeat = ConsumerGroup.prototype.heartbeat;
  ConsumerGroup.prototype.heartbeat = async function (this: CoordinatorHolder, options: { interval: number }) {
    // Before the first join there is no coordinator and nothing to beat for (kafkajs skips it too).
    if (this.coordinator && !this.coordinator.isConnected()) {
      rediscoverInBackground(this);
      return;
    }
    return heartbeat.call(this, options);
  };
  OffsetManager.prototype.getCoordinator = function (this: CoordinatorHolder) {
    return liveCoordinator(this);
  };
  installed = true;
}
