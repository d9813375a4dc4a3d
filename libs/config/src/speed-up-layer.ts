/**
 * A speed-up beside a pattern's textbook core: what it changes, what it costs, the decision record
 * that holds its measured gain, and the boolean variable that switches it off. Every layer defaults
 * to on; with every layer off the pattern runs its core alone, correct and slower. The bench turns
 * each layer off in turn (`layers` in bench/results/latest.json) and the docs list them from here.
 */
export interface SpeedUpLayer {
  /** Short kebab-case name, the same in the bench, the docs and the layer's file name. */
  readonly name: string;
  /** The pattern it sits beside. */
  readonly pattern: 'outbox' | 'inbox' | 'commands';
  /** The boolean environment variable that turns it off (`false`), declared in the library's env schema. */
  readonly switch: string;
  /** One sentence: what the core does differently with the layer on. */
  readonly changes: string;
  /** One sentence: what it costs (latency, duplicates after a crash, memory, complexity). */
  readonly costs: string;
  /** Path of its decision record under docs/decisions/, from the repository root. */
  readonly decision: string;
}
