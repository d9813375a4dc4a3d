import { describe, expect, it } from '@jest/globals';
import { idleRssMb } from './idle-rss.js';
import { rssMb } from './process-usage.js';

/** Above the largest pid Linux can hand out (2^22): no process has it. */
const NO_SUCH_PID = 2 ** 22 + 1;

describe('idle RSS', () => {
  it('when a process is read, then its figure is the median of its readings, in MB, near what /proc says of it now', async () => {
    const idle = await idleRssMb({ self: process.pid }, { settleMs: 0, samples: 3, intervalMs: 10 });

    const now = rssMb(process.pid);
    expect(idle.self).toBeGreaterThan(10);
    // The median of three readings a few milliseconds ago, against one now: the same process, within a fifth.
    expect(Math.abs(idle.self - now) / now).toBeLessThan(0.2);
  });

  it('when a process is gone, then its figure is NaN (null in latest.json), not a made-up number, and the others are read', async () => {
    const idle = await idleRssMb({ gone: NO_SUCH_PID, self: process.pid }, { settleMs: 0, samples: 2, intervalMs: 1 });

    expect(idle.gone).toBeNaN();
    expect(idle.self).toBeGreaterThan(10);
  });
});
