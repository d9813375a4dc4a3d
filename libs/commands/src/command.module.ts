import { type DynamicModule, Module } from '@nestjs/common';
import { retentionJob } from '@libs/database';
import { scheduledJob } from '@libs/scheduling';
import { CommandDispatcher } from './dispatch/command.dispatcher.js';
import { CommandMetrics } from './ops/command.metrics.js';
import { commandsRetention } from './retention/command.retention.js';
import { CommandWriter } from './write/command.writer.js';
import {
  checkedCommandsOptions,
  checkedCommandsTable,
  COMMANDS_OPTIONS,
  COMMANDS_TABLE,
  COMMANDS_WRITTEN,
  type CommandsOptions,
  dispatchWakeUpToken,
} from './command.options.js';

/**
 * Durable outgoing commands. `forRoot` (once, in the app module) runs the dispatcher that sends the
 * commands of `options.table` until the partner acknowledges them, and deletes acknowledged ones
 * after `options.retentionMs`; `forFeature` (in each feature
 * module whose use cases enqueue commands) provides {@link CommandWriter} for that table. Not global:
 * a feature module shows that it enqueues commands by importing it. `forRoot` is global for one
 * thing only, its dispatcher's wake-up, so that a feature's writer wakes it after each commit.
 * Needs `DatabaseModule`, `MetricsModule`, `ScheduleModule.forRoot()` and the app's migrations of
 * `options.table`.
 */
@Module({})
export class CommandsModule {
  static forRoot(options: CommandsOptions): DynamicModule {
    const wakeUp = dispatchWakeUpToken(checkedCommandsOptions(options).table);
    return {
      module: CommandsModule,
      global: true,
      exports: [wakeUp],
      providers: [
        { provide: COMMANDS_OPTIONS, useValue: options },
        CommandMetrics,
        CommandDispatcher,
        { provide: wakeUp, inject: [CommandDispatcher], useFactory: (dispatcher: CommandDispatcher) => () => dispatcher.trigger() },
        scheduledJob({
          inject: [CommandDispatcher, COMMANDS_OPTIONS],
          define: (dispatcher: CommandDispatcher, options: CommandsOptions) => ({
            name: `${options.table}-dispatch`,
            job: dispatcher,
            schedule: { intervalMs: options.pollIntervalMs },
          }),
        }),
        retentionJob({ inject: [COMMANDS_OPTIONS, CommandMetrics], policy: commandsRetention }),
      ],
    };
  }

  static forFeature(options: { table: string }): DynamicModule {
    return {
      module: CommandsModule,
      providers: [
        { provide: COMMANDS_TABLE, useValue: checkedCommandsTable(options.table) },
        // Absent when no forRoot of this table runs in the app: the writer then wakes nobody.
        {
          provide: COMMANDS_WRITTEN,
          inject: [{ token: dispatchWakeUpToken(options.table), optional: true }],
          useFactory: (wake?: () => void) => wake ?? (() => undefined),
        },
        CommandWriter,
      ],
      exports: [CommandWriter],
    };
  }
}
