export { JobScheduler, scheduledJob, type JobDefinition, type JobSchedule, type ScheduledJob } from './job-scheduler.js';
export { OneRunAtATime, type JobRun } from './one-run-at-a-time.js';
