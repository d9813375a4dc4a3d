import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ensurePostgres, findRepoRoot, freePort, type LocalPostgres, uniqueName } from '@tools/local-stack';

/**
 * What a start that died leaves behind never blocks the next start: a server still running on the
 * cluster (its start script gone) is stopped and a fresh one started; a postmaster.pid naming a
 * live process that is not that server is removed. Real servers, on ports of their own.
 */
const stateDir = join(findRepoRoot(), '.local', 'test-postgres', uniqueName('leftover'));

/** The running server's pid, as its lock file names it, once it answers. */
async function serverPid(port: number): Promise<number> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  await client.connect();
  await client.end();
  return Number(readFileSync(join(stateDir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

describe('the embedded PostgreSQL after a start that died', () => {
  const started: LocalPostgres[] = [];
  const logs: string[] = [];
  const start = async (url: string) => {
    const postgres = await ensurePostgres(url, findRepoRoot(), (message) => logs.push(message), { POSTGRES_LOCAL_DIR: stateDir });
    started.push(postgres);
    return postgres;
  };

  afterAll(async () => {
    for (const postgres of started.reverse()) await postgres.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('when the start script that started the server is gone, then the next start stops that server and starts its own', async () => {
    const url = `postgres://postgres@127.0.0.1:${await freePort()}`;
    expect((await start(url)).source).toBe('embedded');
    const leftover = await serverPid(Number(new URL(url).port));
    // As a start script killed with SIGKILL leaves it: the server runs, its starter is gone.
    const gone = spawnSync('true').pid;
    writeFileSync(join(stateDir, 'started-by.pid'), `${gone}\n`);

    expect((await start(url)).source).toBe('embedded');
    expect(logs).toContain(`stopped the embedded PostgreSQL (pid ${leftover}) a start that died left running`);
    expect(await serverPid(Number(new URL(url).port))).not.toBe(leftover);
    await started.pop()!.stop();
  }, 120_000);

  it('when postmaster.pid names a live process that is not the server, then the lock is removed and the server starts', async () => {
    const url = `postgres://postgres@127.0.0.1:${await freePort()}`;
    // Pid 1 (init) runs, and is no server of this cluster: Postgres alone would refuse to start.
    writeFileSync(join(stateDir, 'data', 'postmaster.pid'), `1\n${join(stateDir, 'data')}\n`);
    const postgres = await start(url);
    expect(postgres.source).toBe('embedded');
    await postgres.stop();
  }, 120_000);
});
