import { describe, expect, it } from '@jest/globals';
import { testInfrastructure } from '@test/fixtures';
import { freePort } from '@tools/test-support';
import { postgresLoginRefused, probePostgres } from './postgres-start-up.probe.js';

const { serverUrl } = testInfrastructure();

/** What the probe threw, or undefined when it resolved. */
const outcome = (promise: Promise<void>) => promise.then(() => undefined).catch((error: unknown) => error);

describe('probePostgres, the start-up wait for the database (real Postgres)', () => {
  it('when the server answers, then the probe resolves', async () => {
    await expect(probePostgres({ DATABASE_URL: serverUrl, DATABASE_NAME: 'postgres', DATABASE_POOL_SIZE: 1 })).resolves.toBeUndefined();
  });

  it('when nothing listens at the address, then it fails and waiting may fix it', async () => {
    const error = await outcome(
      probePostgres({
        DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}`,
        DATABASE_NAME: 'postgres',
        DATABASE_POOL_SIZE: 1,
      }),
    );
    expect(error).toMatchObject({ code: 'ECONNREFUSED' });
    expect(postgresLoginRefused(error)).toBeUndefined();
  });

  it('when the server refuses the login (a role it does not know), then the refusal names DATABASE_URL', async () => {
    const url = new URL(serverUrl);
    url.username = 'no_such_role_for_the_probe';
    const error = await outcome(probePostgres({ DATABASE_URL: url.toString(), DATABASE_NAME: 'postgres', DATABASE_POOL_SIZE: 1 }));
    expect(postgresLoginRefused(error)).toMatch(/^DATABASE_URL: the server refused its user and password/);
  });
});
