import { describe, expect, it } from '@jest/globals';
import type { Admin, Kafka } from 'kafkajs';
import { testInfrastructure } from '@test/fixtures';
import { uniqueName } from '@tools/test-support';
import { ensureTopics } from './kafka-admin.js';
import { createKafka } from './kafka.factory.js';

/**
 * Replicas start together. Each app creates the topics it needs at start-up; the
 * lists of orders and inventory overlap (both topics) and differ (each its own dead-letter topic),
 * so creators racing on a fresh cluster see every mix of "created by me", "already exists" and
 * "not propagated yet". Real broker, fresh topic names per run.
 */
const { brokers } = testInfrastructure();

describe('ensureTopics with concurrent creators (real Kafka)', () => {
  it('when eight processes create overlapping topic lists at the same moment, then every call succeeds and every partition has a leader', async () => {
    const name = (role: string) => uniqueName(`test.replicas-${role}.v1`).replace(/_/g, '-');
    const [orders, reservations, ordersDlq, reservationsDlq] = [
      name('orders'),
      name('reservations'),
      name('orders-dlq'),
      name('reservations-dlq'),
    ];
    const lists = [
      [orders, reservations, reservationsDlq],
      [orders, reservations, ordersDlq],
    ];
    const calls = Array.from({ length: 8 }, (_, n) =>
      ensureTopics(createKafka({ brokers, clientId: uniqueName(`test-creator-${n}`) }), lists[n % 2], 3),
    );
    const results = await Promise.allSettled(calls);
    expect(results.filter((result) => result.status === 'rejected').map((result) => String(result.reason))).toEqual([]);

    // Each topic was created by exactly one caller; the others found it (or lost the race to it).
    const created = results.flatMap((result) => (result as PromiseFulfilledResult<string[]>).value);
    expect(created.sort()).toEqual([orders, reservations, ordersDlq, reservationsDlq].sort());

    const admin = createKafka({ brokers, clientId: uniqueName('test-check') }).admin();
    await admin.connect();
    try {
      const metadata = await admin.fetchTopicMetadata({ topics: [orders, reservations, ordersDlq, reservationsDlq] });
      for (const topic of metadata.topics) {
        expect({
          topic: topic.name,
          partitions: topic.partitions.length,
          leaderless: topic.partitions.filter((p) => p.leader < 0).length,
        }).toEqual({
          topic: topic.name,
          partitions: 3,
          leaderless: 0,
        });
      }
    } finally {
      await admin.disconnect();
    }
  });

  /**
   * What the issue saw, reproduced at the kafkajs admin boundary because a single local broker
   * propagates new topics too fast to lose the race on demand: the controller has created the
   * topic, the broker answering metadata has not heard of it yet. kafkajs' own leader wait inside
   * `createTopics` then fails with UNKNOWN_TOPIC_OR_PARTITION, and metadata requests fail the same
   * way for a while.
   */
  it('when the new topic is not yet known to the broker that answers metadata, then ensureTopics waits instead of failing', async () => {
    const topic = uniqueName('test.propagation.v1').replace(/_/g, '-');
    const notHosted = () =>
      Object.assign(new Error('This server does not host this topic-partition'), {
        name: 'KafkaJSProtocolError',
        type: 'UNKNOWN_TOPIC_OR_PARTITION',
        retriable: true,
      });
    const real = createKafka({ brokers, clientId: uniqueName('test-propagation') });
    let metadataFailures = 3;
    const lagging = new Proxy(real, {
      get(target, property, receiver) {
        if (property !== 'admin') return Reflect.get(target, property, receiver);
        return (...args: Parameters<Kafka['admin']>): Admin => {
          const admin = target.admin(...args);
          const createTopics = admin.createTopics.bind(admin);
          const fetchTopicMetadata = admin.fetchTopicMetadata.bind(admin);
          admin.createTopics = async (options) => {
            const created = await createTopics({ ...options, waitForLeaders: false });
            if (options.waitForLeaders !== false) throw notHosted();
            return created;
          };
          admin.fetchTopicMetadata = async (options) => {
            if (metadataFailures > 0) {
              metadataFailures -= 1;
              throw notHosted();
            }
            return fetchTopicMetadata(options);
          };
          return admin;
        };
      },
    });
    expect(await ensureTopics(lagging, [topic], 3)).toEqual([topic]);
    expect(metadataFailures).toBe(0);
  });
});
