// The option tables of docs/configuration.md: one per library environment schema, as the apps
// spread them into theirs. Schemas built by a function (`databaseEnv(name)`, ...) are rendered
// twice with different arguments: a default that changes with them is the app's, and its service
// page states it.
import { authEnv, clientCredentialsEnv } from '@libs/auth';
import { commandsEnv } from '@libs/commands';
import { envDefaultCell, type EnvSchema, renderEnvTable } from '@libs/config';
import { databaseEnv } from '@libs/database';
import { messageSigningEnv, messageVerificationEnv } from '@libs/envelope';
import { httpEnv } from '@libs/http';
import { idempotencyEnv } from '@libs/idempotency';
import { inboxEnv } from '@libs/inbox';
import { consumerLagEnv, kafkaEnv, kafkaHealthEnv, kafkaSecurityEnv } from '@libs/kafka';
import { outboxEnv } from '@libs/outbox';
import { telemetryEnv } from '@libs/telemetry';
import { deployerVariables } from '../deployer-variables.js';

/** One library schema as the page shows it. */
interface LibraryOptions {
  /** Section name in the page's marker (`<!-- generated:options-<id> ... -->`). */
  readonly id: string;
  readonly schema: EnvSchema;
  /** The same schema built with other arguments, when it is built by a function. */
  readonly other?: EnvSchema;
  /** Schemas it spreads, shown in their own table and left out of this one. */
  readonly includes?: readonly EnvSchema[];
}

export const libraryOptions: readonly LibraryOptions[] = [
  { id: 'http', schema: httpEnv },
  { id: 'auth', schema: authEnv },
  { id: 'client-credentials', schema: clientCredentialsEnv },
  { id: 'telemetry', schema: telemetryEnv },
  { id: 'database', schema: databaseEnv('app'), other: databaseEnv('other') },
  { id: 'kafka', schema: kafkaEnv('app'), other: kafkaEnv('other'), includes: [kafkaSecurityEnv] },
  { id: 'kafka-security', schema: kafkaSecurityEnv },
  { id: 'consumer-lag', schema: consumerLagEnv },
  { id: 'kafka-health', schema: kafkaHealthEnv },
  { id: 'message-signing', schema: { ...messageSigningEnv, ...messageVerificationEnv } },
  { id: 'outbox', schema: outboxEnv, includes: [messageSigningEnv] },
  { id: 'inbox', schema: inboxEnv, includes: [messageVerificationEnv] },
  {
    id: 'idempotency',
    schema: idempotencyEnv({ keysPerCallerMax: 1, keysWindowMs: 1 }),
    other: idempotencyEnv({ keysPerCallerMax: 2, keysWindowMs: 2 }),
  },
  { id: 'commands', schema: commandsEnv('PARTNER', 'the partner'), other: commandsEnv('PARTNER', 'the partner') },
];

/** Every variable name the library tables show or point to `.env.example` for. */
export function libraryVariables(): Set<string> {
  return new Set(libraryOptions.flatMap((options) => Object.keys(options.schema)));
}

/**
 * The table of one library schema; a default that depends on the app's arguments says so. A
 * variable a deployment sets is in `.env.example` instead: a line under the table names it.
 */
export function renderLibraryOptions(options: LibraryOptions): string {
  const included = new Set(options.includes?.flatMap((schema) => Object.keys(schema)) ?? []);
  const own = Object.keys(options.schema).filter((name) => !included.has(name));
  const schema = Object.fromEntries(own.filter((name) => !deployerVariables.has(name)).map((name) => [name, options.schema[name]]));
  const otherDefault = (name: string) => options.other?.[name]?.safeParse(undefined);
  const table = renderEnvTable(schema, (name, value) => {
    const other = otherDefault(name);
    const appSet = other !== undefined && other.success && JSON.stringify(other.data) !== JSON.stringify(value);
    return appSet ? "the app's (its service page)" : envDefaultCell(value);
  });
  const inExample = own.filter((name) => deployerVariables.has(name));
  return inExample.length === 0
    ? table
    : `${table}\n\nSet by a deployment, so in [.env.example](../.env.example): ${inExample.join(', ')}.`;
}
