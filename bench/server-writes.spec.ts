import { describe, expect, it } from '@jest/globals';
import { serverWrites } from './server-writes.js';

describe('serverWrites', () => {
  const before = { walBytes: 1_000_000, walFullPageImages: 100, checkpoints: 3, backendBufferWrites: 10 };

  it('divides the WAL written between two readings by the orders finished between them', () => {
    const after = { walBytes: 3_000_000, walFullPageImages: 600, checkpoints: 4, backendBufferWrites: 25 };
    expect(serverWrites(before, after, 500)).toEqual({
      walBytesPerOrder: 4000,
      walFullPageImagesPerOrder: 1,
      checkpoints: 1,
      backendBufferWrites: 15,
    });
  });

  it('gives no per-order figure for an interval in which no order finished, but still counts the checkpoints', () => {
    const after = { ...before, walBytes: 2_000_000, checkpoints: 5 };
    const writes = serverWrites(before, after, 0);
    expect(writes.walBytesPerOrder).toBeNaN();
    expect(writes.walFullPageImagesPerOrder).toBeNaN();
    expect(writes.checkpoints).toBe(2);
  });
});
