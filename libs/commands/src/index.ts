export { CommandsModule } from './commands.module.js';
export type { CommandsOptions } from './commands.options.js';
export { CommandWriter } from './command.writer.js';
export type { OutgoingCommand } from './outgoing-command.js';
export { parkedCountQuery } from './command.metrics.js';
