import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP forwarder on the lab's gateway address to the same port on the host's loopback: a process
 * inside a namespace cannot reach 127.0.0.1 of the host, where Postgres and the token issuer
 * listen. The same port number on the gateway keeps every URL the same but for its host. A cut
 * between a namespace and the gateway drops the packets between the process and this relay, so
 * the process sees a dead link; the server behind the relay still sees the relay's connection
 * alive, as it would behind any proxy or pooler.
 */
export class HostRelay {
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  /** Listens on `address:port` and forwards to `127.0.0.1:port`; undefined when the port is already served there (a wildcard listener). */
  static async start(address: string, port: number): Promise<HostRelay | undefined> {
    const server = createServer();
    const relay = new HostRelay(server);
    server.on('connection', (inbound) => {
      const outbound = connect({ host: '127.0.0.1', port });
      for (const socket of [inbound, outbound]) {
        relay.sockets.add(socket);
        socket.on('close', () => relay.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      inbound.on('close', () => outbound.destroy());
      outbound.on('close', () => inbound.destroy());
      inbound.pipe(outbound);
      outbound.pipe(inbound);
    });
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, address, resolve);
      });
    } catch (error) {
      // A server listening on every address already answers on the gateway's.
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') return undefined;
      throw error;
    }
    return relay;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
