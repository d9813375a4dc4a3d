import { createConnection } from 'node:net';
import { createKafka, describeCluster } from '@app/kafka';

function tcpAnswers(hostPort: string, timeoutMs: number): Promise<boolean> {
  const [host, port] = hostPort.split(':');
  return new Promise((resolve) => {
    const socket = createConnection({ host, port: Number(port) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True when the first broker accepts TCP and the cluster answers a metadata request. */
export async function kafkaAnswers(brokers: string[], timeoutMs = 3000): Promise<boolean> {
  if (!(await tcpAnswers(brokers[0], timeoutMs))) return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      describeCluster(createKafka({ brokers, clientId: 'probe' })),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    // A pending timer would keep the caller's process (Jest, npm start) alive for its duration.
    clearTimeout(timer);
  }
}
