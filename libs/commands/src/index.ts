export { CommandsModule } from './commands.module.js';
export { commandsEnv, commandsOptions, type CommandsEnv } from './commands.config.js';
export { commandsUnfilteredColumns, createCommandsTable } from './create-commands-table.migration.js';
export type { CommandsOptions } from './commands.options.js';
export { CommandWriter } from './command.writer.js';
export { DispatcherFailpoints } from './commands.failpoints.js';
export type { OutgoingCommand } from './outgoing-command.js';
export type { CommandBatching } from './command-batch.js';
export { parkedCountQuery } from './command.metrics.js';
