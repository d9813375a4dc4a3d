import { createServer } from 'node:net';

/**
 * Throws when `port` cannot be bound on `host`, i.e. something already listens there. Local
 * start-up checks this first: otherwise a health probe would get its 200 from that other process
 * (an earlier `npm start`, a test) and report a stack as up whose own app failed to bind.
 */
export async function assertPortFree(port: number, host = '0.0.0.0', label = `port ${port}`): Promise<void> {
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host, exclusive: true }, resolve);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'EADDRINUSE'
        ? `${label} is already in use on ${host}: stop whatever listens there (another npm start, a test run) or choose another port`
        : `${label} cannot be bound on ${host}: ${(error as Error).message}`,
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
