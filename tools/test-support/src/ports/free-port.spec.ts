import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { freePort, listeningRange, readEphemeralRange } from './free-port.js';

const directory = mkdtempSync(join(tmpdir(), 'free-port-spec-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function listen(port: number): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}

describe('the range test processes listen in', () => {
  it("reads Linux's ephemeral range, and nothing where the file is missing or garbled", () => {
    const file = join(directory, 'ip_local_port_range');
    writeFileSync(file, '32768\t60999\n');
    expect(readEphemeralRange(file)).toEqual({ first: 32768, last: 60999 });
    writeFileSync(file, 'garbled');
    expect(readEphemeralRange(file)).toBeNull();
    expect(readEphemeralRange(join(directory, 'missing'))).toBeNull();
  });

  it('lies below the ephemeral range, above it when below has no room, and nowhere when neither has', () => {
    expect(listeningRange({ first: 32768, last: 60999 })).toEqual({ first: 20000, last: 32767 });
    expect(listeningRange({ first: 1024, last: 50000 })).toEqual({ first: 50001, last: 65535 });
    expect(listeningRange({ first: 1024, last: 65000 })).toBeNull();
    // macOS has no /proc: Linux's default range is assumed, which also stays under macOS's 49152.
    expect(listeningRange(null)).toEqual({ first: 20000, last: 32767 });
  });
});

describe('freePort', () => {
  const range = listeningRange(readEphemeralRange());

  it('hands out distinct ports outside the range outgoing connections take their local ports from', async () => {
    const ports: number[] = [];
    for (let n = 0; n < 50; n += 1) ports.push(await freePort());

    expect(new Set(ports).size).toBe(ports.length);
    const ephemeral = readEphemeralRange() ?? { first: 32768, last: 60999 };
    if (range) {
      expect(ports.filter((port) => port >= ephemeral.first && port <= ephemeral.last)).toEqual([]);
      expect(ports.filter((port) => port < range.first || port > range.last)).toEqual([]);
    }
  });

  it('skips a port something already listens on, and the one it returns can be bound', async () => {
    const next = await freePort();
    // The cursor walks forward by one, so the port after `next` is the one it would try next.
    const occupied = await listen(next + 1).catch(() => null);
    try {
      const port = await freePort();
      expect(port).not.toBe(next + 1);
      const server = await listen(port);
      await new Promise((resolve) => server.close(resolve));
    } finally {
      if (occupied) await new Promise((resolve) => occupied.close(resolve));
    }
  });
});
