import { Inject, Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { JobScheduler } from '@app/scheduling';
import { CommandDispatcher } from './command.dispatcher.js';
import { COMMANDS_OPTIONS, type CommandsOptions } from './commands.options.js';

/** Runs the dispatcher every `pollIntervalMs`; awaits the calls in flight on shutdown. */
@Injectable()
export class CommandDispatchScheduler extends JobScheduler {
  constructor(
    @Inject(SchedulerRegistry) registry: SchedulerRegistry,
    @Inject(CommandDispatcher) dispatcher: CommandDispatcher,
    @Inject(COMMANDS_OPTIONS) options: CommandsOptions,
  ) {
    super(registry, `${options.table}-dispatch`, dispatcher, { intervalMs: options.pollIntervalMs });
  }
}
