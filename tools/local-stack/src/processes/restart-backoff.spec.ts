import { describe, expect, it } from '@jest/globals';
import { RestartBackoff } from './restart-backoff.js';

describe('restart backoff of npm start', () => {
  const options = { firstMs: 1000, maxMs: 8000, healthyAfterMs: 60_000 };

  it('when an app keeps dying soon after each start, then the waits double up to the cap', () => {
    let now = 0;
    const backoff = new RestartBackoff(options, () => now);
    const waits = [];
    for (let death = 0; death < 6; death++) {
      now += 500;
      waits.push(backoff.afterDeath());
      backoff.started();
    }
    expect(waits.map((wait) => wait.delayMs)).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
    expect(waits.map((wait) => wait.deathsInARow)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('when an app ran past healthyAfterMs since its last start, then its next death waits firstMs again', () => {
    let now = 0;
    const backoff = new RestartBackoff(options, () => now);
    backoff.afterDeath();
    backoff.started();
    backoff.afterDeath();
    backoff.started();
    now += 60_000;
    expect(backoff.afterDeath()).toEqual({ delayMs: 1000, deathsInARow: 1 });
  });
});
