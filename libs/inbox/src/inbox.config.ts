import { env, type EnvConfig } from '@app/config';

export const inboxEnv = {
  INBOX_MAX_ATTEMPTS: env.integer({
    description: 'Handler attempts per message before it is dead-lettered; each holds up its partition',
    default: 5,
    min: 1,
    max: 100,
  }),
  INBOX_RETRY_BASE_MS: env.integer({
    description: 'Delay before the second attempt; doubles per attempt, with jitter',
    default: 200,
    min: 0,
    max: 60_000,
  }),
  INBOX_RETRY_MAX_MS: env.integer({
    description: 'Cap of the delay between attempts; keep the sum well under the consumer session timeout',
    default: 5000,
    min: 0,
    max: 60_000,
  }),
};

export type InboxConfig = EnvConfig<typeof inboxEnv>;

export const INBOX_CONFIG = Symbol('INBOX_CONFIG');
