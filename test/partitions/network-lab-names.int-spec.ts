import { execFile } from 'node:child_process';
import { hostname } from 'node:os';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NetworkLab, type NetworkPlacement } from '@tools/local-stack';

const run = promisify(execFile);

/**
 * What the resolver answers for `name` inside `placement`'s namespace, through the files `ip netns
 * exec` mounts. The deadline is a quarter of one resolver timeout: an answer that waited for DNS
 * (`getent` asks for IPv6 first, which the hosts file does not give) fails here instead of passing late.
 */
async function resolveInside(placement: NetworkPlacement, name: string): Promise<string> {
  const { stdout } = await run(placement.wrapper[0], [...placement.wrapper.slice(1), 'getent', 'hosts', name], { timeout: 5000 });
  return stdout.trim().split(/\s+/)[0];
}

/**
 * The names a process in a lab namespace looks up must be answered from the lab's hosts file:
 * the namespace routes to the host, not to the machine's DNS server, so a name left to DNS waits
 * out the resolver's timeouts (20 s for `getent`, 10 s for Java). A Kafka node resolves the
 * machine's own name at start-up and the names of its peers and clients on every connection.
 */
describe('NetworkLab names (real network namespaces)', () => {
  let lab: NetworkLab;
  let first: NetworkPlacement;
  let second: NetworkPlacement;

  beforeAll(async () => {
    lab = await NetworkLab.create();
    first = await lab.join('names-a');
    second = await lab.join('names-b');
  });

  afterAll(async () => {
    await lab?.destroy();
  });

  it("when a process in a lab namespace looks up the machine's own name, then the hosts file answers with loopback", async () => {
    await expect(resolveInside(first, hostname())).resolves.toBe('127.0.0.1');
  });

  it('when a member looks up another member joined after it, then the hosts file answers with that member’s address', async () => {
    await expect(resolveInside(first, second.namespace)).resolves.toBe(second.address);
    await expect(resolveInside(second, first.namespace)).resolves.toBe(first.address);
  });
});
