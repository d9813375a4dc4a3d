import { describe, expect, it } from '@jest/globals';
import { ReadingMeans } from './reading-means.js';

describe('reading means: the mean of each figure over one sample interval', () => {
  it('when a saw-tooth is read often, then each interval has its mean whatever the phase, and an interval starts empty', () => {
    const means = new ReadingMeans();
    // A saw-tooth 0 -> 11 read at every step, over two intervals shifted by half a period.
    for (let step = 0; step < 12; step += 1) means.add({ outbox: step, inbox: 0 });
    expect(means.take()).toEqual({ outbox: 5.5, inbox: 0 });
    for (let step = 6; step < 18; step += 1) means.add({ outbox: step % 12 });
    expect(means.take()).toEqual({ outbox: 5.5 });
    expect(means.take()).toEqual({});
  });

  it('when a name is missing from some readings, then its mean is of the readings that had it', () => {
    const means = new ReadingMeans();
    means.add({ a: 10, b: 1 });
    means.add({ a: 20 });
    expect(means.take()).toEqual({ a: 15, b: 1 });
  });
});
