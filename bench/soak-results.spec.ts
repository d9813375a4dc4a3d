import { describe, expect, it } from '@jest/globals';
import { type SoakResults, soakShapeProblems } from './soak-results.js';

const soak = (): SoakResults => ({
  startedAt: '2026-12-02T00:00:00.000Z',
  finishedAt: '2026-12-02T00:05:00.000Z',
  minutes: 5,
  offeredPerSec: 70,
  rateSource: '70 % of --rate=100',
  appEnv: { LOAD_SHED_ENABLED: 'true' },
  autovacuum: { on: true, wasOn: false, restored: true, note: 'turned on with ALTER SYSTEM for the soak, then restored' },
  isSoak: true,
  sent: 21_000,
  accepted: 21_000,
  failedRequests: 0,
  shedRequests: 0,
  unfinished: 0,
  samples: [
    {
      atMinutes: 0.5,
      finished: 2100,
      p99Ms: 80,
      rssMb: { orders: 150, inventory: 140, loyalty: 100 },
      tables: { 'orders.outbox_messages': { rows: 2100, liveTuples: 2100, deadTuples: 2100, autovacuumCount: 0 } },
    },
  ],
  notes: [],
});

describe('soak.json', () => {
  it('when every figure was measured, then the check finds nothing', () => {
    expect(soakShapeProblems(JSON.parse(JSON.stringify(soak())))).toEqual([]);
  });

  it('when samples or the autovacuum verdict are missing, then the check names them', () => {
    const value = JSON.parse(JSON.stringify({ ...soak(), samples: [], autovacuum: undefined }));
    expect(soakShapeProblems(value)).toEqual(['autovacuum.on is not a boolean', 'samples is not a non-empty array']);
  });
});
