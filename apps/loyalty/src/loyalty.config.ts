import { authEnv } from '@app/auth';
import { env, type EnvConfig } from '@app/config';
import { databaseEnv } from '@app/database';
import { httpEnv } from '@app/http';
import { telemetryEnv } from '@app/telemetry';
import { idempotencyEnv } from '@app/idempotency';

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
