import type { CommandBatching } from './layers/batched-calls.layer.js';
import type { CommandLayerSwitches } from './layers/command.layers.js';

/**
 * What an app tells `CommandsModule.forRoot`. No defaults here: they live on the environment
 * variables `commandsEnv(prefix)` declares (inventory's `LOYALTY_*`), and `commandsOptions` reads
 * the validated values into this shape.
 */
export interface CommandsOptions {
  /**
   * The app's table of commands, created by the library's migration `createCommandsTable(table)`
   * (the columns are listed in docs/commands.md). Also the prefix of every metric name (`<table>_done_total`, ...), so one name
   * finds the rows and the dashboards. A plain (optionally schema-qualified) SQL identifier.
   */
  table: string;
  /** Base URL every command's `path` is resolved against, e.g. `http://loyalty:3002`. */
  baseUrl: string;
  /**
   * How often the dispatcher looks for due commands that no commit announced: retries after their
   * backoff, a dead replica's commands after their lease. A command written through
   * {@link CommandWriter} wakes the dispatcher of its process as soon as its transaction commits,
   * and a backlog drains without waiting. Lower: retries sent sooner, more idle queries.
   */
  pollIntervalMs: number;
  /**
   * Least time between the starts of two dispatch cycles that commits ask for: after a quiet spell
   * a command is claimed at once; under load one claim carries every command of the linger. Higher:
   * fewer claims per command, up to this much more latency under load. 0: a claim per wake-up.
   */
  lingerMs: number;
  /** Commands claimed per statement; a full batch is followed at once by the next. Larger: fewer claims, a longer lease. */
  batchSize: number;
  /**
   * Command paths the partner also takes in batches, and how many per request (see
   * {@link CommandBatching}): two or more due commands of such a path go in one request. Absent:
   * one request per command.
   */
  batching?: CommandBatching;
  /** Calls in flight at once per process. Higher drains faster until the partner saturates, and shortens the lease. */
  concurrency: number;
  /** Timeout of one call; a timeout is retried with the same Idempotency-Key. */
  requestTimeoutMs: number;
  /** First retry delay after a timeout, 5xx or network error; doubles per attempt, with jitter. */
  retryBaseMs: number;
  /** Cap of the retry delay: the worst extra latency once the partner is back. */
  retryMaxMs: number;
  /** The caller's credentials: every command is sent with `Authorization: Bearer <token>`. */
  tokenSource: AccessTokenSource;
  /**
   * How long an acknowledged (`DONE`) command is kept, counted from its `completed_at`; older ones
   * are deleted by the cleanup job. Longer keeps more history to investigate a partner's dispute;
   * the table grows by a row per command for that long. `PENDING` and `PARKED` rows are never
   * deleted: they are work, not history.
   */
  retentionMs: number;
  /**
   * Which speed-up layers run beside the dispatcher's core (see `commandLayers`): all of them,
   * unless a `COMMANDS_<NAME>_ENABLED` variable says `false`. With none, the core alone: correct, slower.
   */
  layers: CommandLayerSwitches;
  /** When the cleanup job runs (cron with seconds, e.g. every five minutes: `0 0/5 * * * *`). */
  cleanupCron: string;
  /** Rows deleted per statement by the cleanup job: bounds lock time and WAL bursts. */
  cleanupBatchSize: number;
}

/**
 * Where the dispatcher gets the bearer token it sends with every command (the partner refuses a
 * call without one). A client-credentials source of `@libs/auth` in the apps; any object with these
 * two methods in a test.
 */
export interface AccessTokenSource {
  /** A valid access token; a rejection makes the attempt a retry. */
  token(): Promise<string>;
  /** Called when the partner answered 401: drop a cached token, the next attempt fetches a new one. */
  invalidate(): void;
}

export const COMMANDS_OPTIONS = Symbol('COMMANDS_OPTIONS');

/** Injection token of the table a feature's {@link CommandWriter} writes to (`CommandsModule.forFeature`). */
export const COMMANDS_TABLE = Symbol('COMMANDS_TABLE');

/** Injection token of what a feature's {@link CommandWriter} calls after a commit that wrote commands. */
export const COMMANDS_WRITTEN = Symbol('COMMANDS_WRITTEN');

/**
 * The token under which `forRoot` of `table` offers its dispatcher's wake-up to every module (one
 * per table, so two partners' dispatchers never wake each other).
 */
export function dispatchWakeUpToken(table: string): string {
  return `CommandDispatcher.wake:${table}`;
}

const SQL_IDENTIFIER = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

/** The table name, once checked: it goes into SQL text, so it must be an identifier and nothing else. */
export function checkedCommandsTable(table: string): string {
  if (!SQL_IDENTIFIER.test(table))
    throw new Error(`CommandsModule: table must be a lower-case SQL identifier, got ${JSON.stringify(table)}`);
  return table;
}

/** The options, once checked (see {@link checkedCommandsTable}). */
export function checkedCommandsOptions(options: CommandsOptions): CommandsOptions {
  checkedCommandsTable(options.table);
  return options;
}
