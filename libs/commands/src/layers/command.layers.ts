import type { Logger } from '@nestjs/common';
import { env, type EnvConfig, type SpeedUpLayer } from '@libs/config';
import type { CommandsOptions } from '../command.options.js';
import type { PartnerConnections } from '../dispatch/command.client.js';
import type { ClaimedWork } from '../dispatch/command.dispatcher.js';
import type { DueCommand } from '../dispatch/command.statements.js';
import { BatchedCalls, batchedCallsLayer } from './batched-calls.layer.js';
import { CoalescedMarks, coalescedMarksLayer } from './coalesced-marks.layer.js';
import { concurrentCallsLayer, oneAfterAnother, runConcurrently } from './concurrent-calls.layer.js';
import { dispatchLingerLayer, dispatchLingerMs } from './dispatch-linger.layer.js';

/**
 * The speed-ups beside the dispatcher's core, in the order a learner meets them: each has a file
 * of its own in this folder, a decision record with its measured gain and a switch, on by default.
 * With every switch `false` the core runs alone: correct, and slower.
 */
export const commandLayers: readonly SpeedUpLayer[] = [dispatchLingerLayer, concurrentCallsLayer, batchedCallsLayer, coalescedMarksLayer];

/** A layer's name, as in {@link commandLayers}. */
type CommandLayerName = 'dispatch-linger' | 'concurrent-calls' | 'batched-calls' | 'coalesced-marks';

/** Which layers run: every one by default (`commandsOptions` reads them from {@link commandLayersEnv}). */
export type CommandLayerSwitches = Readonly<Record<CommandLayerName, boolean>>;

const layerSwitch = (layer: SpeedUpLayer) =>
  env.boolean({
    description: `Speed-up layer ${layer.name} of the commands' dispatcher: ${layer.changes} Costs: ${layer.costs} false runs the core without it (${layer.decision})`,
    default: true,
  });

/** The switches of the layers, one variable each, shared by every partner's dispatcher of the process. */
export const commandLayersEnv = {
  COMMANDS_DISPATCH_LINGER_ENABLED: layerSwitch(dispatchLingerLayer),
  COMMANDS_CONCURRENT_CALLS_ENABLED: layerSwitch(concurrentCallsLayer),
  COMMANDS_BATCHED_CALLS_ENABLED: layerSwitch(batchedCallsLayer),
  COMMANDS_COALESCED_MARKS_ENABLED: layerSwitch(coalescedMarksLayer),
};

/** The switches, from a configuration validated with {@link commandLayersEnv}. */
export function commandLayerSwitches(config: EnvConfig<typeof commandLayersEnv>): CommandLayerSwitches {
  return {
    'dispatch-linger': config.COMMANDS_DISPATCH_LINGER_ENABLED,
    'concurrent-calls': config.COMMANDS_CONCURRENT_CALLS_ENABLED,
    'batched-calls': config.COMMANDS_BATCHED_CALLS_ENABLED,
    'coalesced-marks': config.COMMANDS_COALESCED_MARKS_ENABLED,
  };
}

/** What the dispatcher's core asks of its layers; each answer is the core's own way when the layer is off. */
export interface DispatchLayers {
  /** Least time between two cycle starts that wake-ups ask for (dispatch-linger; the core: 0). */
  readonly lingerMs: number;
  /** Calls in flight at once, which the claim lease must cover (concurrent-calls; the core: 1). */
  readonly concurrency: number;
  /** Steps 2-4 for a claim's commands (batched-calls groups them, concurrent-calls runs several at once). */
  sendAll(due: readonly DueCommand[], work: ClaimedWork): Promise<void>;
  /** Marks ids `DONE`, whether each was (coalesced-marks shares statements; the core: its own statement). */
  markDone(ids: readonly string[]): Promise<boolean[]>;
}

/** What the layers use of the dispatcher: its `DONE` statement, its connections, its logger. */
export interface DispatcherParts {
  markDone(ids: readonly string[]): Promise<ReadonlySet<string>>;
  connections: PartnerConnections;
  logger: Pick<Logger, 'warn' | 'error'>;
}

/** What the layers read of the module's options. */
type LayeredOptions = Pick<
  CommandsOptions,
  'layers' | 'lingerMs' | 'concurrency' | 'batching' | 'baseUrl' | 'requestTimeoutMs' | 'tokenSource'
>;

/** The layers `options.layers` switches on, around the core's own way of doing each step. */
export function dispatchLayers(options: LayeredOptions, parts: DispatcherParts): DispatchLayers {
  const on = options.layers;
  const concurrency = on['concurrent-calls'] ? options.concurrency : 1;
  const runCalls = on['concurrent-calls']
    ? <T>(items: readonly T[], work: (item: T) => Promise<void>) => runConcurrently(items, concurrency, work)
    : oneAfterAnother;
  const batching = on['batched-calls'] ? options.batching : undefined;
  const batches = batching && new BatchedCalls({ ...options, batching }, parts.connections, runCalls, parts.logger);
  const marks = on['coalesced-marks'] ? new CoalescedMarks(parts.markDone) : undefined;
  return {
    lingerMs: dispatchLingerMs(options),
    concurrency,
    sendAll: (due, work) => (batches ? batches.sendAll(due, work) : runCalls(due, (command) => work.send(command))),
    markDone: marks
      ? (ids) => marks.markEach(ids)
      : async (ids) => {
          const marked = await parts.markDone(ids);
          return ids.map((id) => marked.has(id));
        },
  };
}
