import { describe, expect, it } from '@jest/globals';
import { SchedulerRegistry } from '@nestjs/schedule';
import { type JobSchedule, JobScheduler, type ScheduledJob } from './job-scheduler.js';

class TestScheduler extends JobScheduler {
  constructor(registry: SchedulerRegistry, job: ScheduledJob, schedule: JobSchedule | undefined) {
    super(registry, 'test-job', job, schedule);
  }
}

/** A job that counts its triggers and records when it was stopped. */
function recordingJob() {
  const events: string[] = [];
  let triggered: () => void = () => undefined;
  const firstTrigger = new Promise<void>((resolve) => (triggered = resolve));
  const job: ScheduledJob = {
    trigger: () => {
      events.push('trigger');
      triggered();
    },
    stop: async () => {
      events.push('stop');
    },
  };
  return { job, events, firstTrigger };
}

describe('JobScheduler', () => {
  it('when given an interval, then it registers it under the job name and triggers the job', async () => {
    const registry = new SchedulerRegistry();
    const { job, firstTrigger } = recordingJob();
    const scheduler = new TestScheduler(registry, job, { intervalMs: 1 });
    await scheduler.onApplicationBootstrap();
    expect(registry.getIntervals()).toEqual(['test-job']);
    await firstTrigger;
    await scheduler.onModuleDestroy();
  });

  it('when given a cron, then it registers a started cron job under the job name', async () => {
    const registry = new SchedulerRegistry();
    const scheduler = new TestScheduler(registry, recordingJob().job, { cron: '0 0 3 * * *' });
    await scheduler.onApplicationBootstrap();
    expect([...registry.getCronJobs().keys()]).toEqual(['test-job']);
    expect(registry.getCronJob('test-job').isActive).toBe(true);
    await scheduler.onModuleDestroy();
  });

  it('when the module is destroyed, then the trigger is removed before the job is stopped, and the stop is awaited', async () => {
    const registry = new SchedulerRegistry();
    const { job, events } = recordingJob();
    const scheduler = new TestScheduler(registry, job, { intervalMs: 60_000 });
    await scheduler.onApplicationBootstrap();
    await scheduler.onModuleDestroy();
    expect(registry.getIntervals()).toEqual([]);
    expect(events).toEqual(['stop']);
  });

  it('when configuration turns the job off, then nothing is registered or triggered, and shutdown still stops the job', async () => {
    const registry = new SchedulerRegistry();
    const { job, events } = recordingJob();
    const scheduler = new TestScheduler(registry, job, undefined);
    await scheduler.onApplicationBootstrap();
    expect(registry.getIntervals()).toEqual([]);
    expect(registry.getCronJobs().size).toBe(0);
    await scheduler.onModuleDestroy();
    expect(events).toEqual(['stop']);
  });
});
