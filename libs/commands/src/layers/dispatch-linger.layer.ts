import type { SpeedUpLayer } from '@libs/config';
import type { CommandsOptions } from '../command.options.js';

/**
 * Layer `dispatch-linger`: wake-ups under load wait `<PREFIX>_DISPATCH_LINGER_MS` since the last
 * cycle started, so one claim carries every command written meanwhile.
 *
 * - Changes: the core starts a cycle on every wake-up (one claim statement per committed
 *   transaction under load); with this layer a wake-up within the linger of the last cycle's start
 *   waits for it. A command written after a quiet spell is still claimed at once.
 * - Costs: up to the linger (40 ms by default) of latency per command under load.
 * - Figure: the three lingers at 40 ms instead of 10, at 150 orders/s: whole-loop CPU per order
 *   10.29-10.65 ms against 11.04-11.41 ms, median p99 466 against 577 ms
 *   ([0304](../../../../docs/decisions/0304-dispatch-linger.md)).
 * - Off: `COMMANDS_DISPATCH_LINGER_ENABLED=false` (the same as `<PREFIX>_DISPATCH_LINGER_MS=0`).
 */
export const dispatchLingerLayer: SpeedUpLayer = {
  name: 'dispatch-linger',
  pattern: 'commands',
  switch: 'COMMANDS_DISPATCH_LINGER_ENABLED',
  changes:
    'A wake-up within <PREFIX>_DISPATCH_LINGER_MS of the last cycle start waits for it, so one claim carries the commands written meanwhile.',
  costs: 'Up to the linger of latency per command under load; none after a quiet spell.',
  decision: 'docs/decisions/0304-dispatch-linger.md',
};

/** The least time between two cycle starts that wake-ups ask for: 0 (a cycle per wake-up) in the core. */
export function dispatchLingerMs(options: Pick<CommandsOptions, 'lingerMs' | 'layers'>): number {
  return options.layers['dispatch-linger'] ? options.lingerMs : 0;
}
