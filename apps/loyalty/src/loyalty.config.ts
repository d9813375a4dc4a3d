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
  ...idempotencyEnv,
};

export type LoyaltyConfig = EnvConfig<typeof loyaltyEnv>;
