import { describe, expect, it } from '@jest/globals';
import { queryTestDatabase, waitFor } from '@tools/local-stack';
import { runPartitionScenario } from './partition-scenario.js';

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));

const pendingCommands = async (serverUrl: string, database: string) =>
  Number((await queryTestDatabase(serverUrl, database, "SELECT count(*)::int AS n FROM loyalty_commands WHERE status = 'PENDING'"))[0].n);

/**
 * Both inventory replicas lose loyalty while everything else works: a call in flight gets no
 * answer (its request timeout ends it, maybe after loyalty applied it), the commands wait PENDING
 * and are retried with backoff. When the link returns each is sent again with its
 * Idempotency-Key: loyalty answers a command it already applied from its record, so no order
 * earns its points twice.
 */
describe('partition: inventory cut from loyalty (real processes, network namespaces)', () => {
  it('when both inventory replicas lose loyalty under load, then loyalty commands wait, and once healed each is applied once', async () => {
    const started = Date.now();
    let waitedAtMost = 0;
    const result = await runPartitionScenario({
      orders: 72,
      rate: 6,
      seed: SEED,
      kafkaNodes: 1,
      action: async (cluster, lab, log) => {
        const { serverUrl, databases } = cluster;
        await waitFor(
          async () => Number((await queryTestDatabase(serverUrl, databases.loyalty, 'SELECT count(*)::int AS n FROM accruals'))[0].n) >= 3,
          { timeoutMs: 120_000, intervalMs: 250, description: '3 accruals at loyalty' },
        );
        const loyalty = cluster.network!.placements.loyalty.address;
        const cuts = [
          await lab.cut(cluster.network!.placements['inventory-1'], [loyalty]),
          await lab.cut(cluster.network!.placements['inventory-2'], [loyalty]),
        ];
        log('inventory-1 and inventory-2 cut from loyalty');
        waitedAtMost = await waitFor(
          async () => {
            const pending = await pendingCommands(serverUrl, databases.inventory);
            return pending >= 5 ? pending : undefined;
          },
          { timeoutMs: 120_000, intervalMs: 250, description: '5 loyalty commands waiting' },
        );
        for (const cut of cuts) await cut.heal();
        log(`healed with ${waitedAtMost} commands pending`);
      },
    });
    console.log(
      `inventory cut from loyalty (seed ${SEED}): ${waitedAtMost} commands waited, test ${Date.now() - started} ms\n${result.log.join('\n')}`,
    );
    expect(waitedAtMost).toBeGreaterThanOrEqual(5);
    expect({ seed: SEED, violations: result.violations }).toEqual({ seed: SEED, violations: [] });
  }, 600_000);
});
