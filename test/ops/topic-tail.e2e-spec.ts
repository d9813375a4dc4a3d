import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Headers } from '@libs/envelope';
import { createKafka } from '@libs/kafka';
import { TestServices } from '@test/fixtures';
import { uniqueName } from '@tools/local-stack';
import { runOps } from '../support/run-ops.js';

/**
 * `npm run ops -- topic tail <topic>`: how docs/operations.md tells a reader to look at a topic from
 * outside. The `ops` principal may read dead letters only, so the command reads as the local admin
 * user. A topic of the test's own, two partitions, six records: what "the last N of each
 * partition" must print is known exactly.
 */
describe('npm run ops -- topic tail (real broker)', () => {
  const services = new TestServices();
  const { infrastructure } = services;
  const topic = uniqueName('ops-tail-test');
  const kafka = () => createKafka({ brokers: infrastructure.brokers, clientId: uniqueName('ops-tail-test') });
  /** Each record sent: its key, message id and where it landed. */
  const sent: { key: string; id: string; partition: number; offset: number }[] = [];

  beforeAll(async () => {
    const admin = kafka().admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
    await admin.disconnect();
    const producer = kafka().producer({ allowAutoTopicCreation: false });
    await producer.connect();
    for (let i = 0; i < 6; i += 1) {
      const key = `key-${i}`;
      const id = randomUUID();
      const [metadata] = await producer.send({
        topic,
        acks: -1,
        messages: [
          { key, value: JSON.stringify({ i }), partition: i % 2, headers: { [Headers.messageId]: id, [Headers.messageType]: 'Probe' } },
        ],
      });
      sent.push({ key, id, partition: metadata.partition, offset: Number(metadata.baseOffset) });
    }
    await producer.disconnect();
  });

  afterAll(async () => {
    const admin = kafka().admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
    await services.tearDown();
  });

  it('when asked for the last 2 of each partition, then it prints exactly those, with position, type, message id, key and value', async () => {
    const run = await runOps(infrastructure, ['topic', 'tail', topic, '--limit', '2']);
    expect(run).toMatchObject({ code: 0 });
    const printed = [...run.stdout.matchAll(new RegExp(`^${topic}:(\\d+):(\\d+) `, 'gm'))].map(([, p, o]) => `${p}:${o}`);
    const expected = [0, 1].flatMap((partition) =>
      sent
        .filter((one) => one.partition === partition)
        .slice(-2)
        .map((one) => `${one.partition}:${one.offset}`),
    );
    expect(printed).toEqual(expected);
    for (const one of sent.filter((record) => expected.includes(`${record.partition}:${record.offset}`))) {
      expect(run.stdout).toContain(`Probe ${one.id} key ${one.key}`);
    }
    expect(run.stdout).toContain('value: {"i":5}');
    expect(run.stdout).toContain(`4 record(s): the last 2 of each partition of ${topic}`);
  });

  it('when the topic does not exist, then it fails (exit 1); without a topic it is a usage error (exit 2)', async () => {
    expect((await runOps(infrastructure, ['topic', 'tail', `${topic}-missing`])).code).toBe(1);
    expect((await runOps(infrastructure, ['topic', 'tail'])).code).toBe(2);
  });
});
