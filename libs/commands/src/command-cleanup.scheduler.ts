import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { JobScheduler } from '@app/scheduling';
import { CommandCleanup } from './command.cleanup.js';
import { COMMANDS_OPTIONS, type CommandsOptions } from './commands.options.js';

/** Runs {@link CommandCleanup} on `cleanupCron`; awaits a run in flight on shutdown. */
@Injectable()
export class CommandCleanupScheduler extends JobScheduler {
  constructor(
    @Inject(SchedulerRegistry) registry: SchedulerRegistry,
    @Inject(CommandCleanup) cleanup: CommandCleanup,
    @Inject(COMMANDS_OPTIONS) options: CommandsOptions,
  ) {
    super(registry, `${options.table}-cleanup`, cleanup, { cron: options.cleanupCron });
  }
}
