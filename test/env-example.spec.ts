import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { ENV_EXAMPLE_PATH, renderEnvExampleFile } from '../scripts/env-example-file.js';

describe('.env.example', () => {
  it('when a config schema changes, then .env.example is regenerated with `npm run env:example`', () => {
    const committed = readFileSync(new URL(`../${ENV_EXAMPLE_PATH}`, import.meta.url), 'utf8');
    expect(committed).toBe(renderEnvExampleFile());
  });
});
