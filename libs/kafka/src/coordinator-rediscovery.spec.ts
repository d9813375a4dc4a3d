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

function broker(nodeId: number, connected: boolean): Broker {
  return { nodeId, isConnected: () => connected };
}

// The cluster stands in for kafkajs' metadata lookups (FindCoordinator against real brokers); the
// real-broker behaviour is test/kafka-cluster/coordinator-kill.e2e-spec.ts.
function holder(coordinator: Broker | undefined, named: Broker): Holder & { lookups: string[] } {
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

  it('when installed twice, then the patch wraps kafkajs once (a second wrap would look up twice)', () => {
    installCoordinatorRediscovery();
    const patched = OffsetManager.prototype.getCoordinator;
    installCoordinatorRediscovery();
    expect(OffsetManager.prototype.getCoordinator).toBe(patched);
  });
});
