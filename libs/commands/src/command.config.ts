import { env, type EnvConfig } from '@libs/config';
import type { CommandsOptions } from './command.options.js';
import { commandLayersEnv, commandLayerSwitches } from './layers/command.layers.js';

/** The variables of one partner's commands, before the prefix: each is one option of {@link CommandsOptions}. */
function commandsVariables(partner: string) {
  return {
    BASE_URL: env.url({
      description: `Base URL of ${partner}, which every command's path is resolved against, e.g. http://127.0.0.1:3002`,
      protocols: ['http', 'https'],
    }),
    DISPATCH_INTERVAL_MS: env.integer({
      description:
        'How often the dispatcher looks for due commands that no commit announced: retries after their backoff, the commands of a dead replica after their lease. A command is sent as soon as the transaction that wrote it commits, and a backlog drains without waiting; lower sends retries sooner, at more idle queries',
      default: 1000,
      min: 10,
      max: 3_600_000,
    }),
    DISPATCH_LINGER_MS: env.integer({
      description:
        'Least time between the starts of two dispatch cycles that commits ask for: a command written after a quiet spell is claimed at once, while under load one claim carries every command written meanwhile. Higher means fewer claim statements per command, at up to this much latency under load; 0 claims on every commit',
      // Why 40: docs/decisions/0001-lingers-of-40-ms.md.
      default: 40,
      min: 0,
      max: 1000,
    }),
    DISPATCH_BATCH_SIZE: env.integer({
      description:
        'Commands claimed per statement; full batches are followed at once by the next. Larger means fewer claims but a longer lease (a dead replica delays its claimed commands until it ends)',
      default: 50,
      min: 1,
      max: 1000,
    }),
    DISPATCH_CONCURRENCY: env.integer({
      description: `Calls to ${partner} in flight at once per process; higher drains faster until ${partner} (or its database pool) saturates, and shortens the claim lease`,
      default: 8,
      min: 1,
      max: 100,
    }),
    REQUEST_TIMEOUT_MS: env.integer({
      description: `Timeout of one call to ${partner}; a timeout is retried with the same Idempotency-Key`,
      default: 3000,
      min: 50,
      max: 120_000,
    }),
    RETRY_BASE_MS: env.integer({
      description: 'First retry delay after a timeout or 5xx; doubles per attempt, with jitter',
      default: 500,
      min: 1,
      max: 3_600_000,
    }),
    RETRY_MAX_MS: env.integer({
      description: `Cap of the retry delay: the worst extra latency once ${partner} is back`,
      default: 30_000,
      min: 1,
      max: 86_400_000,
    }),
    COMMANDS_RETENTION_MS: env.integer({
      description: `Acknowledged (DONE) commands to ${partner} older than this are deleted by cleanup; keep enough to answer a dispute. Pending and parked ones are never deleted`,
      default: 7 * 24 * 3_600_000,
      min: 0,
      max: 365 * 24 * 3_600_000,
    }),
    COMMANDS_CLEANUP_CRON: env.cron({
      description: `When the cleanup of commands to ${partner} runs (cron syntax with seconds)`,
      default: '0 */5 * * * *',
    }),
    COMMANDS_CLEANUP_BATCH_SIZE: env.integer({
      description: 'Commands deleted per statement by cleanup; bounds lock time and WAL bursts',
      default: 1000,
      min: 1,
      max: 100_000,
    }),
  };
}

type CommandsVariables = ReturnType<typeof commandsVariables>;

/** The environment schema {@link commandsEnv} gives for `Prefix`: `<Prefix>_BASE_URL`, `<Prefix>_DISPATCH_INTERVAL_MS`, ... */
export type CommandsEnv<Prefix extends string> = {
  [K in keyof CommandsVariables as `${Prefix}_${K}`]: CommandsVariables[K];
} & typeof commandLayersEnv;

/**
 * The environment variables of one partner's commands, every option of {@link CommandsOptions}
 * with its default, bounds and cost, named `<prefix>_...` (the app's name for the partner:
 * `commandsEnv('LOYALTY', 'loyalty')` gives `LOYALTY_BASE_URL`, `LOYALTY_DISPATCH_INTERVAL_MS`, ...), and
 * the switches of the dispatcher's speed-up layers, `COMMANDS_<NAME>_ENABLED`, shared by every partner.
 * Spread it into the app's schema, as `outboxEnv` and `inboxEnv` are; {@link commandsOptions}
 * turns the validated values into the module's options. `<prefix>_BASE_URL` has no default: a
 * deployed service must be told where its partner is.
 *
 * Defaults: sent when the writing transaction commits (a 40 ms linger under load), a poll every second for retries, 50 commands per claim, 8 calls in flight, 3 s timeout, retries from 500 ms
 * doubling to 30 s, DONE commands kept 7 days (cleanup every five minutes, 1,000 rows per statement).
 */
export function commandsEnv<const Prefix extends string>(prefix: Prefix, partner: string): CommandsEnv<Prefix> {
  return {
    ...Object.fromEntries(Object.entries(commandsVariables(partner)).map(([name, variable]) => [`${prefix}_${name}`, variable])),
    ...commandLayersEnv,
  } as CommandsEnv<Prefix>;
}

/**
 * The options of `CommandsModule.forRoot` for `table`, from a configuration validated with
 * {@link commandsEnv}: all but the `tokenSource`, which is the app's own credentials for the partner.
 */
export function commandsOptions<const Prefix extends string>(
  prefix: Prefix,
  config: EnvConfig<CommandsEnv<Prefix>>,
  table: string,
): Omit<CommandsOptions, 'tokenSource'> {
  const value = <K extends keyof CommandsVariables>(name: K) =>
    (config as Record<string, unknown>)[`${prefix}_${name}`] as EnvConfig<CommandsVariables>[K];
  return {
    table,
    baseUrl: value('BASE_URL'),
    pollIntervalMs: value('DISPATCH_INTERVAL_MS'),
    lingerMs: value('DISPATCH_LINGER_MS'),
    batchSize: value('DISPATCH_BATCH_SIZE'),
    concurrency: value('DISPATCH_CONCURRENCY'),
    requestTimeoutMs: value('REQUEST_TIMEOUT_MS'),
    retryBaseMs: value('RETRY_BASE_MS'),
    retryMaxMs: value('RETRY_MAX_MS'),
    retentionMs: value('COMMANDS_RETENTION_MS'),
    cleanupCron: value('COMMANDS_CLEANUP_CRON'),
    cleanupBatchSize: value('COMMANDS_CLEANUP_BATCH_SIZE'),
    layers: commandLayerSwitches(config),
  };
}
