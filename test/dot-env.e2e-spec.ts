import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { compiledEntry, NodeProcess } from '@tools/local-stack';

/**
 * `.env` in the working directory is read at start-up (libs/config loadDotEnv): shown through the
 * configuration errors of a real loyalty process, which name exactly the variables that ended up
 * missing or malformed. No database is needed: the process stops at validation.
 */
const directory = mkdtempSync(join(tmpdir(), 'dot-env-test-'));
writeFileSync(join(directory, '.env'), '# as a developer would keep it\nLOYALTY_PORT=abc\nDATABASE_POOL_SIZE=0\n');

async function reportedProblems(env: Record<string, string>): Promise<{ code: number | null; reported: string[] }> {
  const { code, stderr } = await NodeProcess.outcome({
    entry: compiledEntry('loyalty', 'main'),
    cwd: directory,
    env: { PATH: process.env.PATH, ...env },
    timeoutMs: 30_000,
  });
  return { code, reported: [...stderr.matchAll(/^\s+- ([A-Z][A-Z0-9_]*) /gm)].map((match) => match[1]).sort() };
}

describe('.env at start-up', () => {
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('when the working directory has a .env, then its variables are read (its malformed values are reported)', async () => {
    expect(await reportedProblems({})).toEqual({
      code: 1,
      reported: ['AUTH_AUDIENCE', 'AUTH_ISSUER', 'AUTH_JWKS_URL', 'DATABASE_POOL_SIZE', 'DATABASE_URL', 'LOYALTY_PORT'],
    });
  });

  it('when the environment sets a variable the .env also sets, then the environment wins', async () => {
    expect(await reportedProblems({ LOYALTY_PORT: '3002' })).toEqual({
      code: 1,
      reported: ['AUTH_AUDIENCE', 'AUTH_ISSUER', 'AUTH_JWKS_URL', 'DATABASE_POOL_SIZE', 'DATABASE_URL'],
    });
  });

  it('when NODE_ENV is test, then .env is ignored: a test sets exactly the environment it means', async () => {
    expect(await reportedProblems({ NODE_ENV: 'test' })).toEqual({
      code: 1,
      reported: ['AUTH_AUDIENCE', 'AUTH_ISSUER', 'AUTH_JWKS_URL', 'DATABASE_URL'],
    });
  });
});
