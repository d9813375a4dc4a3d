// Every helper command (`npm run orders:seed`, `ops`, `bench`, ...) runs scripts/build.mjs first,
// while `npm run dev` may be running the apps from dist/ under `node --watch`. These real processes
// show that a build never takes a file away from them: an app started from dist/ keeps serving
// through a build, and one under `node --watch` whose compiled file was out of date restarts onto
// the new file instead of dying with "Cannot find module".
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { TestServices } from '@test/fixtures';
import { APP_NODE_FLAGS, compiledEntry, findRepoRoot, NodeProcess, type ServiceProcess, waitFor } from '@tools/local-stack';

const repoRoot = findRepoRoot();
const services = new TestServices();
let plain: ServiceProcess;
let watched: ServiceProcess;

const healthy = async (service: ServiceProcess) => (await fetch(`${service.baseUrl}/health`).catch(() => undefined))?.status === 200;
const helperBuild = () => NodeProcess.run({ entry: 'scripts/build.mjs', cwd: repoRoot, env: process.env, timeoutMs: 180_000 });

beforeAll(async () => {
  plain = await services.start({ service: 'loyalty', database: await services.createDatabase('helper_build_plain') });
  watched = await services.start({
    service: 'loyalty',
    name: 'loyalty-watch',
    database: await services.createDatabase('helper_build_watch'),
    nodeArgs: [...APP_NODE_FLAGS, '--watch'],
  });
}, 180_000);

afterAll(() => services.tearDown(), 60_000);

describe('a helper build while apps run from dist/', () => {
  it('when the build runs with the sources unchanged, then both apps keep serving and neither restarts', async () => {
    await helperBuild();
    expect(plain.process.isRunning).toBe(true);
    expect(await healthy(plain)).toBe(true);
    expect(await healthy(watched)).toBe(true);
    expect(watched.process.logs).not.toMatch(/Restarting|Failed running|Cannot find module/);
  });

  it('when a compiled file an app under node --watch runs is out of date, then the build replaces it and the app restarts onto it', async () => {
    const entry = compiledEntry('loyalty', 'main');
    const current = readFileSync(entry, 'utf8');
    writeFileSync(entry, `${current}\n// out of date\n`);
    await watched.process.waitForOutput('Restarting', 60_000);
    await waitFor(() => healthy(watched), { timeoutMs: 90_000, description: 'loyalty under --watch healthy after the edit' });
    const restartsBefore = watched.process.logs.split('Restarting').length;

    await helperBuild();
    expect(readFileSync(entry, 'utf8')).toBe(current);
    await waitFor(() => watched.process.logs.split('Restarting').length > restartsBefore, {
      timeoutMs: 60_000,
      description: 'the watcher to restart loyalty onto the rebuilt file',
    });
    await waitFor(() => healthy(watched), { timeoutMs: 90_000, description: 'loyalty under --watch healthy after the build' });
    expect(watched.process.logs).not.toMatch(/Failed running|Cannot find module/);
    expect(plain.process.isRunning).toBe(true);
    expect(await healthy(plain)).toBe(true);
  });
});
