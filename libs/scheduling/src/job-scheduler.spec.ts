import { describe, expect, it } from '@jest/globals';
import { ScheduleModule, SchedulerRegistry } from '@nestjs/schedule';
import { Test } from '@nestjs/testing';
import { type JobSchedule, JobScheduler, type ScheduledJob, scheduledJob } from './job-scheduler.js';

const testScheduler = (registry: SchedulerRegistry, job: ScheduledJob, schedule: JobSchedule | undefined) =>
  new JobScheduler(registry, 'test-job', job, schedule);

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
    const scheduler = testScheduler(registry, job, { intervalMs: 1 });
    await scheduler.onApplicationBootstrap();
    expect(registry.getIntervals()).toEqual(['test-job']);
    await firstTrigger;
    await scheduler.onModuleDestroy();
  });

  it('when given a cron, then it registers a started cron job under the job name', async () => {
    const registry = new SchedulerRegistry();
    const scheduler = testScheduler(registry, recordingJob().job, { cron: '0 0 3 * * *' });
    await scheduler.onApplicationBootstrap();
    expect([...registry.getCronJobs().keys()]).toEqual(['test-job']);
    expect(registry.getCronJob('test-job').isActive).toBe(true);
    await scheduler.onModuleDestroy();
  });

  it('when the module is destroyed, then the trigger is removed before the job is stopped, and the stop is awaited', async () => {
    const registry = new SchedulerRegistry();
    const { job, events } = recordingJob();
    const scheduler = testScheduler(registry, job, { intervalMs: 60_000 });
    await scheduler.onApplicationBootstrap();
    await scheduler.onModuleDestroy();
    expect(registry.getIntervals()).toEqual([]);
    expect(events).toEqual(['stop']);
  });

  it('when configuration turns the job off, then nothing is registered or triggered, and shutdown still stops the job', async () => {
    const registry = new SchedulerRegistry();
    const { job, events } = recordingJob();
    const scheduler = testScheduler(registry, job, undefined);
    await scheduler.onApplicationBootstrap();
    expect(registry.getIntervals()).toEqual([]);
    expect(registry.getCronJobs().size).toBe(0);
    await scheduler.onModuleDestroy();
    expect(events).toEqual(['stop']);
  });

  it('when built by scheduledJob in a Nest module, then bootstrap registers it from its injected dependencies and closing the app stops it', async () => {
    const { job, events, firstTrigger } = recordingJob();
    const moduleRef = await Test.createTestingModule({
      imports: [ScheduleModule.forRoot()],
      providers: [
        { provide: 'TEST_INTERVAL_MS', useValue: 1 },
        scheduledJob({
          inject: ['TEST_INTERVAL_MS'],
          define: (intervalMs: number) => ({ name: 'factory-job', job, schedule: { intervalMs } }),
        }),
      ],
    }).compile();
    const app = await moduleRef.init();
    expect(app.get(SchedulerRegistry).getIntervals()).toEqual(['factory-job']);
    await firstTrigger;
    await app.close();
    expect(events.at(-1)).toBe('stop');
  });
});
