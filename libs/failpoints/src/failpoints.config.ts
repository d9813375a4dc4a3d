import { env } from '@libs/config';

/**
 * The variables that arm failpoints (see `failpointsFromEnv`), declared so the configuration
 * reference (docs/configuration.md) lists them; the apps read them through `armFailpoints`, which refuses them outside tests.
 */
export const failpointsEnv = {
  FAILPOINTS: env.string({
    description:
      'Tests only: comma-separated failpoints `name[@scope][=action]` that kill the process where they fire; refused without FAILPOINTS_ENABLED=true and NODE_ENV=test',
    default: '',
  }),
  FAILPOINTS_ENABLED: env.boolean({
    description: 'Tests only: must be true, with NODE_ENV=test, for FAILPOINTS to be read at all',
    default: false,
  }),
};
