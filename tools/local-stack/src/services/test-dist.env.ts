import { env } from '@libs/config';

/** What the test launchers read to find the compiled services (compiled-entry.ts). */
export const testDistEnv = {
  TEST_DIST_DIR: env.string({
    description: 'Where tests and the local tooling find the compiled apps (a copy of dist/); empty: <repo>/dist',
    default: '',
  }),
};
