import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Admin } from 'kafkajs';
import { publishRecords, testInfrastructure } from '@test/fixtures';
import { uniqueName } from '@tools/test-support';
import { consumerLag } from './consumer-lag.js';
import { ensureTopics } from './kafka-admin.js';
import { createKafka } from './kafka.factory.js';

const { brokers } = testInfrastructure();

describe('consumerLag against the real broker', () => {
  const topic = uniqueName('test.lag').replace(/_/g, '-');
  let admin: Admin;

  beforeAll(async () => {
    const kafka = createKafka({ brokers, clientId: 'lag-test' });
    await ensureTopics(kafka, [topic], 2);
    admin = kafka.admin();
    await admin.connect();
    // Same key: all five records land on one partition, the other stays empty.
    await publishRecords(
      brokers,
      topic,
      Array.from({ length: 5 }, (_, i) => ({ key: 'k', value: JSON.stringify({ i }) })),
    );
  });

  afterAll(async () => {
    await admin?.disconnect();
  });

  it('when the group committed offset 2 of 5, then the lag of that partition is 3 and the empty one 0', async () => {
    const groupId = uniqueName('test-lag-group');
    const ends = await admin.fetchTopicOffsets(topic);
    const full = ends.find((p) => p.high === '5')!;
    await admin.setOffsets({
      groupId,
      topic,
      partitions: ends.map((p) => ({ partition: p.partition, offset: p === full ? '2' : p.high })),
    });

    const lags = await consumerLag(admin, groupId, [topic]);

    expect(lags.sort((a, b) => a.partition - b.partition)).toEqual(
      ends.map((p) => ({ topic, partition: p.partition, lag: p === full ? 3 : 0 })).sort((a, b) => a.partition - b.partition),
    );
  });

  it('when the group never committed, then every retained record counts as lag (the apps read from the beginning)', async () => {
    const lags = await consumerLag(admin, uniqueName('test-lag-new-group'), [topic]);
    expect(lags.reduce((sum, p) => sum + p.lag, 0)).toBe(5);
  });
});
