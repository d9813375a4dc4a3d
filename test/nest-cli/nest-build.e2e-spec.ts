import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { testAuthEnv, testInfrastructure, TestServices, testSigningEnv } from '@test/fixtures';
import { findRepoRoot, freePort, kafkaSaslEnv, localKafkaCredentials, NodeProcess, uniqueName } from '@tools/local-stack';

const repoRoot = findRepoRoot();
const nestCli = join(repoRoot, 'node_modules/@nestjs/cli/bin/nest.js');

/**
 * The Nest CLI builds one app of the monorepo WITH the libraries it imports
 * (path aliases rewritten to relative ESM specifiers), and that build runs. The earlier removal of
 * `nest-cli.json` happened because `nest start` built an app without its libraries, so this test
 * starts what the CLI wrote, not what scripts/build.mjs wrote.
 */
describe('the Nest CLI (nest-cli.json, real processes)', () => {
  // Under .local/ (git-ignored) and not in /tmp: the build needs node_modules and the repository's
  // package.json ("type": "module") above it, as dist/ has them.
  const work = join(repoRoot, '.local', uniqueName('nest-build'));
  const services = new TestServices();
  let inventory: NodeProcess | undefined;

  beforeAll(() => {
    mkdirSync(work, { recursive: true });
    // The app's own tsconfig, with the output moved into the work folder: nothing in dist/ is touched.
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({ extends: join(repoRoot, 'apps/inventory/tsconfig.app.json'), compilerOptions: { outDir: join(work, 'dist') } }),
    );
  });

  afterAll(async () => {
    await inventory?.stop();
    await services.tearDown();
    rmSync(work, { recursive: true, force: true });
  });

  it('when `nest build inventory` runs, then the build holds the app and its libraries and starts against Postgres and Kafka until /health/ready answers', async () => {
    await NodeProcess.run({
      name: 'nest build',
      entry: nestCli,
      // The CLI reads --path relative to the working directory.
      args: ['build', 'inventory', '--path', relative(repoRoot, join(work, 'tsconfig.json'))],
      cwd: repoRoot,
      env: { PATH: process.env.PATH },
      timeoutMs: 180_000,
    });
    const built = (file: string) => join(work, 'dist', file);

    const { serverUrl, brokers } = testInfrastructure();
    const database = await services.createDatabase('nest_cli_inventory');
    const databaseEnv = { PATH: process.env.PATH, DATABASE_URL: serverUrl, DATABASE_NAME: database };
    await NodeProcess.run({ name: 'inventory migrate', entry: built('apps/inventory/src/migrate.js'), cwd: repoRoot, env: databaseEnv });

    const port = await freePort();
    // Inside the prefix the inventory principal may join.
    const group = uniqueName('inventory-test-nest-cli');
    inventory = new NodeProcess({
      name: 'inventory (nest build)',
      entry: built('apps/inventory/src/main.js'),
      cwd: repoRoot,
      env: {
        ...databaseEnv,
        // The run's token issuer and inventory's client credentials: authentication is never off.
        ...testAuthEnv('inventory'),
        // The broker requires SASL (as inventory) and every app signs and verifies envelopes.
        ...kafkaSaslEnv(localKafkaCredentials(), 'inventory'),
        ...testSigningEnv('inventory'),
        NODE_ENV: 'test',
        KAFKA_BROKERS: brokers.join(','),
        KAFKA_CLIENT_ID: group,
        KAFKA_CONSUMER_GROUP: group,
        INVENTORY_PORT: String(port),
        HTTP_HOST: '127.0.0.1',
        // Nothing is dispatched in this test; inventory only needs a valid URL to start.
        LOYALTY_BASE_URL: 'http://127.0.0.1:9',
      },
    });
    await inventory.waitUntilHealthy(`http://127.0.0.1:${port}/health/ready`, 120_000);
    expect(inventory.isRunning).toBe(true);
    // A full type-check of the app and its libraries comes first: minutes on a loaded CI machine.
  }, 300_000);

  it('when `nest generate service shipping --project orders --dry-run` runs, then every file it would create or change is under apps/orders', async () => {
    const output = await NodeProcess.run({
      name: 'nest generate',
      entry: nestCli,
      args: ['generate', 'service', 'shipping', '--project', 'orders', '--dry-run'],
      cwd: repoRoot,
      env: { PATH: process.env.PATH },
    });
    const touched = [...output.matchAll(/^(?:CREATE|UPDATE) (\S+)/gm)].map((match) => match[1]);
    expect(touched).toContain('apps/orders/src/shipping/shipping.service.ts');
    expect(touched.filter((file) => !file.startsWith('apps/orders/'))).toEqual([]);
  });

  it("when `npm run generate -- service shipping --project orders` runs, then what it writes already passes the project's Prettier check", async () => {
    // A copy of what the schematics read and change (not the checkout: they write files).
    const copy = join(work, 'generate');
    for (const entry of ['nest-cli.json', 'package.json', '.prettierrc.json', 'apps/orders'])
      cpSync(join(repoRoot, entry), join(copy, entry), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'));
    const output = await NodeProcess.run({
      name: 'npm run generate',
      entry: join(repoRoot, 'scripts/nest-generate.mjs'),
      args: ['service', 'shipping', '--project', 'orders'],
      cwd: copy,
      env: { PATH: process.env.PATH },
    });
    const written = [...output.matchAll(/^(?:CREATE|UPDATE) (\S+)/gm)].map((match) => match[1]);
    expect(written).toEqual(
      expect.arrayContaining(['apps/orders/src/shipping/shipping.service.ts', 'apps/orders/src/orders-app.module.ts']),
    );
    // NodeProcess.run throws with Prettier's report when the check fails.
    const check = await NodeProcess.run({
      name: 'prettier --check',
      entry: join(repoRoot, 'node_modules/prettier/bin/prettier.cjs'),
      args: ['--check', ...written],
      cwd: copy,
      env: { PATH: process.env.PATH },
    });
    expect(check).toContain('All matched files use Prettier code style');
  });
});
