import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import { installCoordinatorRediscovery } from './coordinator-rediscovery.js';

interface Broker {
  nodeId: number;
  isConnected(): boolean;
}
interface Holder {
  groupId: string;
  coordinator: Broker | undefined;
  cluster: { findGroupCoordinator(options: { groupId: string }): Promise<Broker> };
}

const load = createRequire(import.meta.url);
const OffsetManager = load('kafkajs/src/consumer/offsetManager/index.js') as {
  prototype: { getCoordinator(this: Holder): Promise<Broker> };
};
const ConsumerGroup = load('kafkajs/src/consumer/consumerGroup.js') as {
  prototype: { heartbeat(this: Holder, options: { interval: number }): Promise<void> };
};

function broker(nodeId: number, connected: boolean): Broker {
  return { nodeId, isConnected: () => connected };
}

// The cluster stands in for kafkajs' metadata lookups (FindCoordinator against real brokers); the
// real-broker behaviour is test/kafka-cluster/coordinator-kill.e2e-spec.ts.
function holder(coordinator: Broker | undefined, named: Broker | Promise<Broker>): Holder & { lookups: string[] } {
  const lookups: string[] = [];
  return {
    groupId: 'inventory',
    coordinator,
    lookups,
    cluster: {
      findGroupCoordinator: ({ groupId }) => {
        lookups.push(groupId);
        return Promise.resolve(named);
      },
    },
  };
}

describe("kafkajs' group coordinator after its connection is gone", () => {
  it('when the known coordinator is still connected, then commits go to it without a lookup', async () => {
    installCoordinatorRediscovery();
    const live = broker(1, true);
    const group = holder(live, broker(2, true));
    await expect(OffsetManager.prototype.getCoordinator.call(group)).resolves.toBe(live);
    expect(group.lookups).toEqual([]);
  });

  it('when the known coordinator died, then the group asks the cluster again and keeps the one it names', async () => {
    installCoordinatorRediscovery();
    const elected = broker(2, true);
    const group = holder(broker(1, false), elected);
    await expect(OffsetManager.prototype.getCoordinator.call(group)).resolves.toBe(elected);
    expect(group.lookups).toEqual(['inventory']);
    expect(group.coordinator).toBe(elected);
  });

  it('when the known coordinator died, then a heartbeat returns at once, beats in a row start one lookup, and the next beat after it goes to the elected one', async () => {
    installCoordinatorRediscovery();
    let elect = (_broker: Broker) => undefined as void;
    const election = new Promise<Broker>((resolve) => (elect = resolve));
    const group = holder(broker(1, false), election);
    // kafkajs beats from the fetch loop: a beat that waited for the election would hold every
    // partition. The holder has none of kafkajs' own heartbeat state: a beat that reached kafkajs'
    // heartbeat here would throw, so resolving proves it was skipped.
    await expect(ConsumerGroup.prototype.heartbeat.call(group, { interval: 0 })).resolves.toBeUndefined();
    await expect(ConsumerGroup.prototype.heartbeat.call(group, { interval: 0 })).resolves.toBeUndefined();
    expect(group.lookups).toEqual(['inventory']);
    const elected = broker(2, true);
    elect(elected);
    await new Promise((resolve) => setImmediate(resolve));
    expect(group.coordinator).toBe(elected);
  });

  it('when the lookup fails (no coordinator elected within the retries), then the next beat starts another', async () => {
    installCoordinatorRediscovery();
    const group = holder(broker(1, false), Promise.reject(new Error('The group coordinator is not available')));
    await ConsumerGroup.prototype.heartbeat.call(group, { interval: 0 });
    await new Promise((resolve) => setImmediate(resolve));
    await ConsumerGroup.prototype.heartbeat.call(group, { interval: 0 });
    expect(group.lookups).toEqual(['inventory', 'inventory']);
  });

  it('when installed twice, then the patch wraps kafkajs once (a second wrap would look up twice)', () => {
    installCoordinatorRediscovery();
    const patched = OffsetManager.prototype.getCoordinator;
    installCoordinatorRediscovery();
    expect(OffsetManager.prototype.getCoordinator).toBe(patched);
  });
});
