import { env, type LaptopSetting } from '@libs/config';

/** HTTP settings shared by every app; the port variable is the app's own (`ORDERS_PORT`, ...). */
export const httpEnv = {
  HTTP_HOST: env.string({
    description:
      'Interface the HTTP server binds to; the default, loopback, is reachable from this machine only. 0.0.0.0 (or ::) listens on every interface, as a container behind a load balancer must; NODE_ENV=production refuses it without HTTP_ALL_INTERFACES_ALLOWED=true',
    default: '127.0.0.1',
  }),
  HTTP_ALL_INTERFACES_ALLOWED: env.boolean({
    description:
      'Allow HTTP_HOST=0.0.0.0 (or ::) under NODE_ENV=production, said on purpose (logged at every start): right in a container or pod whose network only the load balancer reaches, wrong on a host with a public interface',
    default: false,
  }),
  HTTP_BODY_LIMIT_BYTES: env.integer({
    description: 'Largest accepted request body; larger bodies get 413',
    default: 65_536,
    min: 1024,
    max: 10_485_760,
  }),
  HTTP_REQUEST_TIMEOUT_MS: env.integer({
    description:
      'Longest a client may take to send a whole request (headers and body), slow clients included; then the connection is closed (408). Lower frees connections held by slow senders sooner; too low cuts clients on slow links',
    default: 10_000,
    min: 1000,
    max: 600_000,
  }),
  HTTP_CONNECTION_TIMEOUT_MS: env.integer({
    description:
      'A connection on which nothing is sent or received for this long is closed, whatever its state. Keep it above the longest answer (DATABASE_STATEMENT_TIMEOUT_MS), or a slow answer is cut',
    default: 60_000,
    min: 1000,
    max: 3_600_000,
  }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: env.integer({
    description:
      "How long an idle keep-alive connection is kept for the client's next request. Keep it above the idle timeout of a load balancer in front (60 s for most), so the balancer closes first and never sends on a closed connection; lower holds fewer idle connections",
    default: 72_000,
    min: 1000,
    max: 600_000,
  }),
  HTTP_MAX_CONNECTIONS: env.integer({
    description:
      'Most connections the server holds at once; a connection beyond it is closed at once. Bounds the memory and file descriptors idle or slow clients can take; too low refuses clients under a real peak',
    default: 1024,
    min: 1,
    max: 1_000_000,
  }),
  HTTP_MAX_CONNECTIONS_PER_CLIENT: env.integer({
    description:
      'Most connections one client address may hold at once; one more is closed at once. Keeps one client (idle or slow sockets) from taking every HTTP_MAX_CONNECTIONS. Clients behind one NAT or proxy share it, and the bench and tests all connect from 127.0.0.1: lower refuses their peaks',
    default: 512,
    min: 1,
    max: 1_000_000,
  }),
  HTTP_SHUTDOWN_TIMEOUT_MS: env.integer({
    description:
      "Longest a SIGTERM shutdown (draining consumers, the relay's last cycle, closing pools) may take before the process exits with code 1; keep the orchestrator's grace period above it",
    default: 20_000,
    min: 1000,
    max: 600_000,
  }),
};

/** Hosts that mean "every interface" to Node's `listen`. */
const ALL_INTERFACES = new Set(['0.0.0.0', '::', '[::]']);

/** What {@link httpEnv} allows only on a laptop (or a container that says so); see `refuseLaptopSettings` of `@libs/config`. */
export function httpLaptopSettings(config: { HTTP_HOST: string; HTTP_ALL_INTERFACES_ALLOWED: boolean }): LaptopSetting[] {
  return [
    {
      present: ALL_INTERFACES.has(config.HTTP_HOST.trim()),
      risk: `HTTP_HOST=${config.HTTP_HOST} listens on every interface of the host`,
      optOut: 'HTTP_ALL_INTERFACES_ALLOWED',
      allowed: config.HTTP_ALL_INTERFACES_ALLOWED,
    },
  ];
}
