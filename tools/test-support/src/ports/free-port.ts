import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Ports for the processes a test or a bench starts come from outside the kernel's ephemeral
 * range. A port the OS hands out for `listen(0)` lies inside it, and between closing the probe and
 * the child's own `listen` (or while a crash test holds a killed app down) any outgoing connection
 * (a Kafka client reconnecting after a leader kill, a pool opening a socket) may take it as its
 * local port: the child then fails with EADDRINUSE, which is what a leader-kill run once did.
 * Outgoing connections never take a port outside that range, so a port drawn there stays free
 * until something listens on it.
 */
const LOWEST = 20_000;
const HIGHEST = 65_535;
const MIN_RANGE = 1_000;

export interface PortRange {
  readonly first: number;
  readonly last: number;
}

/** Linux's `ip_local_port_range` ("32768\t60999"); null where the file does not exist (macOS). */
export function readEphemeralRange(path = '/proc/sys/net/ipv4/ip_local_port_range'): PortRange | null {
  try {
    const [first, last] = readFileSync(path, 'utf8').trim().split(/\s+/).map(Number);
    return Number.isInteger(first) && Number.isInteger(last) ? { first, last } : null;
  } catch {
    return null;
  }
}

/**
 * The range to draw from: below the ephemeral range if that leaves room, else above it. Null when
 * neither side does, and the OS then picks (the old race, on a machine configured to have no
 * other choice). macOS's ephemeral range starts at 49152, which the default below stays under.
 */
export function listeningRange(ephemeral: PortRange | null): PortRange | null {
  const { first, last } = ephemeral ?? { first: 32_768, last: 60_999 };
  if (first - LOWEST >= MIN_RANGE) return { first: LOWEST, last: first - 1 };
  if (HIGHEST - last >= MIN_RANGE) return { first: last + 1, last: HIGHEST };
  return null;
}

const range = listeningRange(readEphemeralRange());
// A random start keeps two processes drawing at once (a test and the stack it starts) apart; the
// cursor then walks the range, so this process hands a port out again only after all the others,
// long after a killed app that owns it has been restarted.
let cursor = range ? Math.floor(Math.random() * (range.last - range.first + 1)) : 0;

/** A TCP port nobody listens on right now, for a process a test is about to start. */
export async function freePort(): Promise<number> {
  if (!range) return bind(0);
  const size = range.last - range.first + 1;
  for (let tried = 0; tried < size; tried += 1) {
    const candidate = range.first + (cursor % size);
    cursor = (cursor + 1) % size;
    try {
      return await bind(candidate);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
    }
  }
  throw new Error(`no free port in ${range.first}-${range.last}`);
}

/** Binds `port` (0: the OS picks) on loopback, closes it again and returns the port it had. */
function bind(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
