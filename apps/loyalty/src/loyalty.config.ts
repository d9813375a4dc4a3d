import { authEnv } from '@libs/auth';
import { env, type EnvConfig } from '@libs/config';
import { databaseEnv } from '@libs/database';
import { httpEnv } from '@libs/http';
import { telemetryEnv } from '@libs/telemetry';
import { idempotencyEnv } from '@libs/idempotency';

export const loyaltyEnv = {
  LOYALTY_PORT: env.port({ description: 'HTTP port of the loyalty service', default: 3002 }),
  ...httpEnv,
  ...authEnv,
  ...telemetryEnv,
  ...databaseEnv('loyalty'),
  // The only caller is inventory's service principal (the routes need loyalty:accruals:write), with
  // one key per order of the whole system: a ceiling on a runaway dispatcher, above the drain rate
  // (500 orders/s), in a short window so that each check reads at most 2,000 index entries.
  ...idempotencyEnv({ keysPerCallerMax: 2000, keysWindowMs: 1000 }),
};

export type LoyaltyConfig = EnvConfig<typeof loyaltyEnv>;
