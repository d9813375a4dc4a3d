import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { testIssuer, TestServices } from '@test/fixtures';
import { findRepoRoot, type ServiceName, uniqueName, waitFor } from '@tools/local-stack';
import { answerMismatch, Bindings, statedStatus } from '../support/answer-shape.js';
import { DocCommandRunner } from '../support/doc-command-runner.js';
import { callsCurl, type DocCommand, docExamples } from '../support/doc-examples.js';
import { startInventoryWithLoyalty } from '../support/inventory-with-loyalty.js';
import { documentationPages } from '../support/documentation-pages.js';

/**
 * Every console block of README.md and docs/**\/*.md, run against the three services as real
 * processes: each command (the quick start's seeds and tokens, every curl, the demo) must print
 * what the page shows, compared by shape (test/support/answer-shape.ts), and a curl must get the
 * status its answer states. A changed API breaks this test, not the reader. A new example is
 * picked up by itself; a curl without its answer fails test/doc-examples.spec.ts.
 */
const root = findRepoRoot();
const pages = documentationPages(root);
const examples = pages.flatMap((page) => docExamples(page, readFileSync(join(root, page), 'utf8')));

/** How long a read that follows an asynchronous step (a reservation, an accrual) may take to show its outcome. */
const EVENTUAL_MS = 60_000;
/** The longest one command may run (the demo takes seconds; a slow shared machine, many more). */
const COMMAND_MS = 150_000;

/** A curl that only reads may be repeated until it shows what the page says: the outcome it shows arrives asynchronously. */
const readsOnly = (command: string) => callsCurl(command) && !/-X\s*(POST|PUT|PATCH|DELETE)\b|\s-d\s|--data/.test(command);

describe('the examples in README.md and docs/**/*.md, run against the services', () => {
  const services = new TestServices();
  const issuerFile = join(root, '.local', 'test-issuers', `${uniqueName('docs')}.json`);
  let runner: DocCommandRunner;

  beforeAll(async () => {
    const { inventory, loyalty, databases } = await startInventoryWithLoyalty(services, 'docs');
    const ordersDatabase = await services.createDatabase('docs_orders');
    const orders = await services.start({ service: 'orders', database: ordersDatabase });
    const ports: Record<ServiceName, string> = {
      orders: new URL(orders.baseUrl).port,
      inventory: new URL(inventory.baseUrl).port,
      loyalty: new URL(loyalty.baseUrl).port,
    };
    const names: Record<ServiceName, string> = { orders: ordersDatabase, ...databases };
    // The commands sign their tokens with the issuer `npm start` runs, read from its state file:
    // here the run's test issuer, written where DEV_ISSUER_FILE points (git-ignored, removed after).
    mkdirSync(join(issuerFile, '..'), { recursive: true });
    writeFileSync(issuerFile, testIssuer().serialize(), { mode: 0o600 });
    runner = new DocCommandRunner(
      {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: services.infrastructure.serverUrl,
        KAFKA_BROKERS: services.infrastructure.brokers.join(','),
        KAFKAJS_NO_PARTITIONER_WARNING: '1',
        ORDERS_PORT: ports.orders,
        INVENTORY_PORT: ports.inventory,
        LOYALTY_PORT: ports.loyalty,
        ORDERS_DATABASE_NAME: names.orders,
        INVENTORY_DATABASE_NAME: names.inventory,
        LOYALTY_DATABASE_NAME: names.loyalty,
        ...services.infrastructure.authEnv.orders,
        DEV_ISSUER_FILE: issuerFile,
        DOCS_TEST_REPO_ROOT: root,
        ...(process.env.TEST_DIST_DIR ? { TEST_DIST_DIR: process.env.TEST_DIST_DIR } : {}),
      },
      ports,
      names,
    );
  });

  afterAll(async () => {
    runner?.close();
    rmSync(issuerFile, { force: true });
    await services.tearDown();
  });

  it('when the pages are read, then there are examples to run (the quick start at least)', () => {
    expect(examples.filter((example) => example.page === 'README.md').length).toBeGreaterThanOrEqual(1);
    expect(examples.flatMap((example) => example.commands).filter((command) => callsCurl(command.command)).length).toBeGreaterThanOrEqual(
      8,
    );
  });

  /** Why `command` did not print what its page shows (undefined: it did), after one run. */
  async function attempt(command: DocCommand, bindings: Bindings, abridged: boolean): Promise<string | undefined> {
    const run = await runner.run(bindings.apply(command.command), COMMAND_MS);
    const where = `${command.page}:${command.line}: $ ${command.command}`;
    const context = `\n  stdout: ${run.stdout.slice(0, 6000)}\n  stderr: ${run.stderr.slice(0, 2000)}`;
    if (callsCurl(command.command)) {
      const stated = statedStatus(command.expected);
      const got = run.httpStatus;
      const statusOk = stated === '2xx' ? got !== undefined && got >= 200 && got < 300 : got === stated;
      if (!statusOk) return `${where}\n  HTTP status ${got ?? 'none'}, the page's answer means ${stated}${context}`;
    } else if (run.code !== 0) {
      return `${where}\n  exited ${run.code}${context}`;
    }
    // A retry must not keep what a failed attempt bound.
    const trial = bindings.copy();
    const mismatch = answerMismatch(command.expected, run.stdout.trim(), trial, abridged);
    if (mismatch) return `${where}\n  ${mismatch}${context}`;
    bindings.adopt(trial);
    return undefined;
  }

  for (const example of examples) {
    it(`when the console block at ${example.page}:${example.line} is run, then each command prints what the page shows`, async () => {
      runner.newBlock();
      const bindings = new Bindings();
      for (const command of example.commands) {
        let last: string | undefined;
        if (readsOnly(command.command)) {
          await waitFor(async () => (last = await attempt(command, bindings, example.abridged)) === undefined, {
            timeoutMs: EVENTUAL_MS,
            intervalMs: 250,
            description: `${command.page}:${command.line} to print what the page shows`,
          }).catch(() => undefined);
        } else {
          last = await attempt(command, bindings, example.abridged);
        }
        expect(last).toBeUndefined();
      }
    }, 600_000);
  }
});
