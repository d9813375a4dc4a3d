// Read first: write/command.writer.ts (a command written in the business transaction), then
// dispatch/command.dispatcher.ts (claim, call with the key, mark or back off) and its
// dispatch/command.statements.ts. The speed-ups are in layers/, one file each.
export { CommandsModule } from './command.module.js';
export { commandsEnv, commandsOptions, type CommandsEnv } from './command.config.js';
export { commandsUnfilteredColumns, createCommandsTable } from './write/command.migration.js';
export type { CommandsOptions } from './command.options.js';
export { CommandWriter, type OutgoingCommand } from './write/command.writer.js';
export { DispatcherFailpoints } from './ops/command.failpoints.js';
export { batchedCallsLayer, type CommandBatching } from './layers/batched-calls.layer.js';
export { concurrentCallsLayer } from './layers/concurrent-calls.layer.js';
export { commandLayers, commandLayersEnv, commandLayerSwitches, type CommandLayerSwitches } from './layers/command.layers.js';
export { parkedCountQuery } from './ops/command.metrics.js';
