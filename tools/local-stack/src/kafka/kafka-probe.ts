import { createConnection } from 'node:net';
import { createKafka, describeCluster, type KafkaSecurity } from '@libs/kafka';
import { waitFor } from '@tools/test-support';

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

/** True when the first broker accepts TCP connections (whether or not it accepts our credentials). */
export function kafkaPortAnswers(brokers: string[], timeoutMs = 3000): Promise<boolean> {
  return tcpAnswers(brokers[0], timeoutMs);
}

/**
 * True when the first broker accepts TCP and the cluster answers a metadata request of a client
 * that authenticates with `security` (default: as the process environment says).
 */
export async function kafkaAnswers(brokers: string[], timeoutMs = 3000, security?: KafkaSecurity): Promise<boolean> {
  if (!(await tcpAnswers(brokers[0], timeoutMs))) return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      describeCluster(createKafka({ brokers, clientId: 'probe', security })),
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

/**
 * Resolves once the cluster can coordinate consumer groups. A new broker creates its offsets topic
 * on the first group request and answers "coordinator not available" until then; waiting here
 * once spares every test's first consumer that start-up race.
 */
export async function waitForGroupCoordinator(brokers: string[], timeoutMs = 60_000): Promise<void> {
  const admin = createKafka({ brokers, clientId: 'coordinator-probe' }).admin();
  await admin.connect();
  try {
    await waitFor(
      async () => {
        await admin.describeGroups(['coordinator-probe']);
        return true;
      },
      { timeoutMs, intervalMs: 250, description: 'the Kafka group coordinator' },
    );
  } finally {
    await admin.disconnect();
  }
}
