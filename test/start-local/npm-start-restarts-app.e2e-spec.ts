import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { npmStartEnv, npmStartPaths } from '../support/npm-start-stack.js';
import { findRepoRoot, NodeProcess, uniqueName, waitFor } from '@tools/local-stack';

/**
 * `npm start` keeps its apps running: an app SIGKILLed once the stack is up (as a record that kills
 * its consumer would) is started again after the backoff, the log says so, and the rest of the
 * stack stays up. The Postgres is an embedded one of its own, as in npm-start-embedded-postgres.
 */
const distDir = process.env.TEST_DIST_DIR || join(findRepoRoot(), 'dist');

/**
 * The pid of the inventory process this test's stack runs: its compiled entry on the command line,
 * this test's port in its environment (read from /proc, so other stacks on the machine never match).
 */
function inventoryPid(port: number): number | undefined {
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('apps/inventory/src/main.js')) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`INVENTORY_PORT=${port}`)) return Number(entry);
    } catch {
      // Gone meanwhile, or another user's: not this stack's inventory.
    }
  }
  return undefined;
}

async function healthy(port: number): Promise<boolean> {
  const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
  return response?.status === 200;
}

describe('npm start when an app dies', () => {
  const { stateDir, issuerFile } = npmStartPaths(uniqueName('restart-app'));
  let env: NodeJS.ProcessEnv;
  let ports: { orders: number; inventory: number };
  let stack: NodeProcess | undefined;

  beforeAll(async () => {
    ({ env, ports } = await npmStartEnv({ stateDir, issuerFile }));
  });

  afterAll(async () => {
    await stack?.stop(30_000);
    rmSync(issuerFile, { force: true });
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('when inventory is SIGKILLed once the stack is up, then npm start says so, starts it again after the backoff, and the stack stays up', async () => {
    stack = new NodeProcess({ name: 'npm-start', entry: join(distDir, 'scripts', 'start-local.js'), env, cwd: findRepoRoot() });
    await stack.waitForOutput('Local stack is up', 240_000);
    const killed = inventoryPid(ports.inventory);
    expect(killed).toEqual(expect.any(Number));

    process.kill(killed!, 'SIGKILL');
    await stack.waitForOutput(
      '[start] inventory exited unexpectedly (signal SIGKILL); restarting it in 1000 ms (1 death(s) in a row)',
      30_000,
    );
    await stack.waitForOutput('[start] inventory restarted', 30_000);
    await waitFor(() => healthy(ports.inventory), {
      timeoutMs: 120_000,
      intervalMs: 500,
      description: 'the restarted inventory to answer /health',
    });

    expect(inventoryPid(ports.inventory)).toEqual(expect.any(Number));
    expect(inventoryPid(ports.inventory)).not.toBe(killed);
    expect(stack.isRunning).toBe(true);
    expect(await healthy(ports.orders)).toBe(true);
    expect(stack.logs).not.toContain('[start] stopping');

    expect(await stack.stop(60_000)).toBe('stopped');
    expect(await stack.waitForExit(1000)).toEqual({ code: 0, signal: null });
  }, 420_000);
});
