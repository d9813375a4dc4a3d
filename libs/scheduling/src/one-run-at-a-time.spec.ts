import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { OneRunAtATime } from './one-run-at-a-time.js';

/** A run the test finishes by hand: each call of the job records itself and waits for `finish`. */
function manualJob<T = number>() {
  const runs: { finish: (value: T) => void; fail: (error: Error) => void; signal: AbortSignal }[] = [];
  const started: (() => void)[] = [];
  const job = (signal: AbortSignal) =>
    new Promise<T>((finish, fail) => {
      runs.push({ finish, fail, signal });
      started.splice(0).forEach((resolve) => resolve());
    });
  /** Resolves once `count` runs have started. */
  const runsStarted = (count: number): Promise<void> =>
    runs.length >= count ? Promise.resolve() : new Promise<void>((resolve) => started.push(resolve)).then(() => runsStarted(count));
  return { job, runs, runsStarted };
}

const errors = () => {
  const seen: string[] = [];
  return { seen, onError: (error: Error) => seen.push(error.message) };
};

describe('OneRunAtATime', () => {
  it('when run is called during a run, then it joins it: one run, one result for both callers', async () => {
    const { job, runs, runsStarted } = manualJob();
    const runner = new OneRunAtATime(job, errors().onError);
    const first = runner.run();
    const second = runner.run();
    await runsStarted(1);
    runs[0].finish(7);
    await expect(Promise.all([first, second])).resolves.toEqual([7, 7]);
    expect(runs).toHaveLength(1);
  });

  it('when woken several times during a run, then exactly one more run follows it, not one per wake-up', async () => {
    const { job, runs, runsStarted } = manualJob();
    const runner = new OneRunAtATime(job, errors().onError);
    runner.wake();
    await runsStarted(1);
    runner.wake();
    runner.wake();
    runner.trigger();
    runs[0].finish(1);
    await runsStarted(2);
    runs[1].finish(2);
    await runner.idle();
    expect(runs).toHaveLength(2);
    expect(runner.running).toBe(false);
  });

  it('when not woken during a run, then no second run follows', async () => {
    const { job, runs, runsStarted } = manualJob();
    const runner = new OneRunAtATime(job, errors().onError);
    const result = runner.run();
    await runsStarted(1);
    runs[0].finish(1);
    await expect(result).resolves.toBe(1);
    await runner.idle();
    expect(runs).toHaveLength(1);
  });

  it('when a run wakes its own job (more is due), then the next run starts right after it', async () => {
    let calls = 0;
    const runner: OneRunAtATime<number> = new OneRunAtATime(async () => {
      calls += 1;
      if (calls < 3) runner.wake();
      return calls;
    }, errors().onError);
    await expect(runner.run()).resolves.toBe(3);
  });

  it('when stopped during a run, then the signal aborts, stop waits for the run, and no wake-up starts another', async () => {
    const { job, runs, runsStarted } = manualJob();
    const runner = new OneRunAtATime(job, errors().onError);
    runner.wake();
    await runsStarted(1);
    runner.wake();
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    expect(runs[0].signal.aborted).toBe(true);
    await Promise.resolve();
    expect(stopped).toBe(false);
    runs[0].finish(1);
    await stopping;
    runner.wake();
    await runner.idle();
    expect(runs).toHaveLength(1);
    await expect(runner.run()).rejects.toThrow('the job is stopped');
  });

  it('when a run started by a wake-up fails, then the error goes to onError, not to an unhandled rejection', async () => {
    const { job, runs, runsStarted } = manualJob();
    const { seen, onError } = errors();
    const runner = new OneRunAtATime(job, onError);
    runner.wake();
    await runsStarted(1);
    runs[0].fail(new Error('database down'));
    await runner.idle();
    expect(seen).toEqual(['database down']);
  });

  it('when a run fails after a wake-up arrived, then the error is reported and the woken run still happens', async () => {
    const { job, runs, runsStarted } = manualJob();
    const { seen, onError } = errors();
    const runner = new OneRunAtATime(job, onError);
    const result = runner.run();
    await runsStarted(1);
    runner.wake();
    runs[0].fail(new Error('first failed'));
    await runsStarted(2);
    runs[1].finish(2);
    await expect(result).resolves.toBe(2);
    expect(seen).toEqual(['first failed']);
  });

  it('when run is called and the run fails with nothing woken, then run rejects with its error', async () => {
    const runner = new OneRunAtATime(() => Promise.reject(new Error('no table')), errors().onError);
    await expect(runner.run()).rejects.toThrow('no table');
    expect(runner.running).toBe(false);
  });

  describe('with a linger (batching that adapts)', () => {
    afterEach(() => {
      jest.useRealTimers();
    });

    /**
     * A job that records, on the fake clock, when each run started, then does `then` (a run's own
     * wake-up) and takes `workMs` of fake time (0: it finishes once its work is awaited).
     */
    function recordedJob(workMs = 0, then: () => void = () => undefined) {
      const starts: number[] = [];
      const job = async () => {
        starts.push(performance.now());
        // Fake time a run takes, advanced by the test; none at all when 0 (its work is just awaited).
        await (workMs > 0 ? new Promise((resolve) => setTimeout(resolve, workMs)) : Promise.resolve());
        then();
      };
      return { starts, job };
    }

    it('when woken after a quiet spell, then the run starts at once: a lone item does not wait', async () => {
      jest.useFakeTimers({ now: 0 });
      const { starts, job } = recordedJob();
      const runner = new OneRunAtATime(job, errors().onError, { lingerMs: 20 });
      runner.wake();
      await runner.idle();
      expect(starts).toEqual([0]);
    });

    it('when woken again within the linger, then the run waits out the rest of it, and wake-ups meanwhile share that one run', async () => {
      jest.useFakeTimers({ now: 0 });
      const { starts, job } = recordedJob();
      const runner = new OneRunAtATime(job, errors().onError, { lingerMs: 20 });
      runner.wake();
      await runner.idle();
      await jest.advanceTimersByTimeAsync(5);
      runner.wake();
      runner.wake();
      await jest.advanceTimersByTimeAsync(10);
      runner.wake();
      expect(starts).toEqual([0]);
      expect(runner.running).toBe(true);
      await jest.advanceTimersByTimeAsync(5);
      await runner.idle();
      expect(starts).toEqual([0, 20]);
    });

    it('when woken during a run that outlasts the linger, then the next run follows at once', async () => {
      jest.useFakeTimers({ now: 0 });
      const { starts, job } = recordedJob(50);
      const runner = new OneRunAtATime(job, errors().onError, { lingerMs: 20 });
      runner.wake();
      await jest.advanceTimersByTimeAsync(10);
      runner.wake();
      await jest.advanceTimersByTimeAsync(100);
      await runner.idle();
      expect(starts).toEqual([0, 50]);
    });

    it('when a run asks for more now, or run() is called, then neither lingers', async () => {
      jest.useFakeTimers({ now: 0 });
      let more = true;
      const { starts, job } = recordedJob(0, () => {
        if (more) runner.wake({ now: true });
        more = false;
      });
      const runner = new OneRunAtATime(job, errors().onError, { lingerMs: 20 });
      runner.wake();
      await runner.idle();
      await runner.run();
      expect(starts).toEqual([0, 0, 0]);
    });

    it('when stopped while a woken run lingers, then it never starts, stop returns at once and nothing is reported', async () => {
      jest.useFakeTimers({ now: 0 });
      const { starts, job } = recordedJob();
      const { seen, onError } = errors();
      const runner = new OneRunAtATime(job, onError, { lingerMs: 1000 });
      runner.wake();
      await runner.idle();
      runner.wake();
      expect(runner.running).toBe(true);
      await runner.stop();
      expect(runner.running).toBe(false);
      await jest.advanceTimersByTimeAsync(2000);
      expect(starts).toEqual([0]);
      expect(seen).toEqual([]);
    });
  });
});
