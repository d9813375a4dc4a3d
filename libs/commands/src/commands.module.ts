import { type DynamicModule, Module } from '@nestjs/common';
import { CommandDispatchScheduler } from './command-dispatch.scheduler.js';
import { CommandDispatcher } from './command.dispatcher.js';
import { CommandMetrics } from './command.metrics.js';
import { CommandWriter } from './command.writer.js';
import { checkedCommandsOptions, COMMANDS_OPTIONS, type CommandsOptions } from './commands.options.js';

/**
 * Durable outgoing commands: {@link CommandWriter} for use cases, and the dispatcher that sends
 * them until the partner acknowledges them. Needs `DatabaseModule`, `MetricsModule`,
 * `ScheduleModule.forRoot()` and the app's migrations of `options.table`.
 */
@Module({})
export class CommandsModule {
  static forRoot(options: CommandsOptions): DynamicModule {
    return {
      module: CommandsModule,
      global: true,
      providers: [{ provide: COMMANDS_OPTIONS, useValue: checkedCommandsOptions(options) }, CommandWriter, CommandMetrics, CommandDispatcher, CommandDispatchScheduler],
      exports: [CommandWriter],
    };
  }
}
