import { describe, expect, it } from '@jest/globals';
import { formatChaosReport, runChaosSoak } from './chaos-soak.js';

/**
 * The short version of `npm run chaos`, same code. Two orders, two inventory and
 * one loyalty process on a Kafka broker of the soak's own; a process (the broker included) is
 * SIGKILLed every ~1.2 s and restarted while clients place and cancel orders with retries; once
 * quiet, the checker reads Postgres and Kafka and must find no violation. A failure prints the
 * seed: `npm run chaos -- --seed <seed> --orders 300 --rate 4 --kill-every-ms 1200 --min-kills 10 --partitions --partition-every-ms 3000`
 * replays its script. Every process runs in a network namespace of its own, and random links are
 * cut meanwhile (an app from the broker or Postgres, inventory from loyalty), each healed before the check.
 */
const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));

describe('chaos soak, short (real processes, real broker, SIGKILL, partitions)', () => {
  it('when processes and the broker are SIGKILLed and links cut under load, then once quiet every invariant holds', async () => {
    const lines: string[] = [];
    const report = await runChaosSoak(
      {
        orders: 300,
        rate: 4,
        killEveryMs: 1200,
        minKills: 10,
        minBrokerKills: 0,
        seed: SEED,
        cancelRatio: 0.25,
        quietTimeoutMs: 120_000,
        echo: false,
        kafkaNodes: 1,
        killBrokers: true,
        partitions: true,
        partitionEveryMs: 3000,
      },
      (line) => lines.push(line),
    );
    const summary = formatChaosReport(report);
    console.log(summary);
    expect({ seed: SEED, violations: report.violations }).toEqual({ seed: SEED, violations: [] });
    // A soak that killed nothing, or acknowledged nothing, proved nothing. (The kills go on after
    // the load until ten happened, so a slow machine makes the soak longer, not this assertion flaky.)
    expect(report.totalKills).toBeGreaterThanOrEqual(10);
    expect(report.kills.broker).toBeGreaterThanOrEqual(1);
    expect(report.orders.acknowledged).toBeGreaterThan(report.orders.requested * 0.9);
    expect(report.orders.cancelsAcknowledged).toBeGreaterThan(0);
    expect(report.facts.reservations.reserved + report.facts.reservations.released).toBeGreaterThan(0);
    // Each kind of cut a single broker allows happened, and some outlasted the consumers' session.
    for (const kind of ['app-broker', 'app-postgres', 'inventory-loyalty'] as const)
      expect(report.partitions!.byKind[kind]).toBeGreaterThanOrEqual(1);
    expect(report.partitions!.beyondSession).toBeGreaterThanOrEqual(1);
    // Some cancels released a reservation, so the compensation path (reversal commands) ran under the kills.
    expect(report.facts.reversals).toBeGreaterThan(0);
  }, 600_000);
});
