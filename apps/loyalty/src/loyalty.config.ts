import { env, type EnvConfig } from '@app/config';
import { databaseEnv } from '@app/database';
import { httpEnv } from '@app/http';
import { idempotencyEnv } from '@app/idempotency';

export const loyaltyEnv = {
  LOYALTY_PORT: env.port({ description: 'HTTP port of the loyalty service', default: 3002 }),
  ...httpEnv,
  ...databaseEnv('loyalty'),
  ...idempotencyEnv,
};

export type LoyaltyConfig = EnvConfig<typeof loyaltyEnv>;
