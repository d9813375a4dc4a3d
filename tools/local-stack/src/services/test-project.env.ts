import { env } from '@libs/config';

/** What jest.config.js reads to run one project only (`npm run test:unit` sets it). */
export const testProjectEnv = {
  TEST_PROJECT: env.string({
    description: 'Runs one Jest project only (unit, integration or e2e), so paths after it select files within it; empty: all three',
    default: '',
  }),
};
