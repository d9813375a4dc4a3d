import type { Server, Socket } from 'node:net';

/**
 * Closes at once a connection from a client address that already holds `max` open connections,
 * so one client (a single host holding idle or slow sockets) can take at most `max` of the
 * server's `HTTP_MAX_CONNECTIONS`, and everyone else still gets in. Counted by remote address:
 * clients behind one NAT or proxy share a count, so keep `max` above what such a front sends.
 */
export function capConnectionsPerClient(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const held = open.get(address) ?? 0;
    if (held >= max) {
      socket.destroy();
      return;
    }
    open.set(address, held + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
