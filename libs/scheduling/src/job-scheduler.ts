import type { FactoryProvider, InjectionToken, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';

/** When a job runs: on a cron expression (six fields, seconds first) or every `intervalMs`. */
export type JobSchedule = { cron: string } | { intervalMs: number };

/**
 * A job a {@link JobScheduler} can drive. Both promises are the job's own, because only the job
 * knows what one run is: runs never overlap, and `stop` leaves nothing running.
 */
export interface ScheduledJob {
  /** Starts a run unless one is in flight. Never throws or rejects: the job logs its own failures. */
  trigger(): void;
  /** Starts no new run, and resolves once the run in flight (if any) has finished. */
  stop(): Promise<void>;
}

/**
 * Runs one job on one schedule from application bootstrap until module destroy: the one shape of
 * the outbox relay, the command dispatcher and every retention job, instead of a copy in each.
 * Built by {@link scheduledJob} from a name, a job and a schedule; subclassed only to add wake-ups
 * of its own (the relay's LISTEN).
 *
 * Registered in `@nestjs/schedule`'s registry at runtime, not with `@Interval()` / `@Cron()`,
 * because the schedule is configuration. Shutdown removes the trigger first and then awaits the
 * job's `stop()`: Nest destroys modules before the DataSource closes, so a run in flight still
 * commits (or rolls back) on an open connection instead of failing half-way.
 */
export class JobScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  /**
   * @param name the job's name in the registry, unique per app (`outbox-relay`, `inbox-cleanup`, ...)
   * @param schedule undefined when configuration turns the job off: never triggered, still stopped
   */
  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly name: string,
    private readonly job: ScheduledJob,
    private readonly schedule: JobSchedule | undefined,
  ) {}

  onApplicationBootstrap(): void | Promise<void> {
    const { schedule } = this;
    if (!schedule) return;
    if ('intervalMs' in schedule) {
      this.registry.addInterval(
        this.name,
        setInterval(() => this.job.trigger(), schedule.intervalMs),
      );
      return;
    }
    const cron = CronJob.from({ cronTime: schedule.cron, onTick: () => this.job.trigger() });
    this.registry.addCronJob(this.name, cron);
    cron.start();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.registry.doesExist('interval', this.name)) this.registry.deleteInterval(this.name);
    if (this.registry.doesExist('cron', this.name)) this.registry.deleteCronJob(this.name);
    await this.job.stop();
  }
}

/** What {@link scheduledJob}'s `define` returns: the job, its name in the registry and its schedule. */
export interface JobDefinition {
  /** Unique per app: `outbox-cleanup`, `loyalty_commands-dispatch`. */
  name: string;
  job: ScheduledJob;
  /** Undefined when configuration turns the job off: never triggered, still stopped on shutdown. */
  schedule: JobSchedule | undefined;
}

/**
 * A Nest provider that runs the job `define` builds from its `inject`ed dependencies on its schedule
 * ({@link JobScheduler}): one line in a module's `providers` instead of a scheduler class that only
 * passes a configuration value. Nest calls the lifecycle hooks of factory-built providers too, so
 * the job starts at bootstrap and is awaited at shutdown.
 *
 * @example
 * scheduledJob({
 *   inject: [CommandDispatcher, COMMANDS_OPTIONS],
 *   define: (dispatcher: CommandDispatcher, options: CommandsOptions) => ({
 *     name: `${options.table}-dispatch`, job: dispatcher, schedule: { intervalMs: options.pollIntervalMs },
 *   }),
 * })
 */
export function scheduledJob<Deps extends unknown[]>(options: {
  inject: readonly InjectionToken[];
  define: (...deps: Deps) => JobDefinition;
}): FactoryProvider<JobScheduler> {
  return {
    // A token of its own: nobody injects the scheduler, and two jobs of one module must not collide.
    provide: Symbol('scheduled-job'),
    inject: [SchedulerRegistry, ...options.inject],
    useFactory: (registry: SchedulerRegistry, ...deps: Deps) => {
      const { name, job, schedule } = options.define(...deps);
      return new JobScheduler(registry, name, job, schedule);
    },
  };
}
