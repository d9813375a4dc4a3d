export { JobScheduler, type JobSchedule, type ScheduledJob } from './job-scheduler.js';
