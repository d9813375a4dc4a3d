import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Kafka } from 'kafkajs';
import { Topics } from '@libs/contracts';
import { deadLetterTopic } from '@libs/envelope';
import { createKafka, ensureTopics, type KafkaSecurity } from '@libs/kafka';
import { testInfrastructure } from '@test/fixtures';
import { type KafkaPrincipal, kafkaSaslSecurity, localKafkaCredentials, OPS_GROUP_PREFIX, uniqueName } from '@tools/local-stack';

/**
 * The broker the tests run on is the one `npm start` runs: SASL/SCRAM on every listener, the
 * StandardAuthorizer with `allow.everyone.if.no.acl.found=false`, and the ACLs the local stack
 * created from what each service consumes and produces. Each principal is tried where it has
 * business (so a refusal below is the ACL's, not a broken client) and where it has none.
 */
const { brokers } = testInfrastructure();
const credentials = localKafkaCredentials();
const ALL_TOPICS = [Topics.orders, Topics.reservations, deadLetterTopic(Topics.orders), deadLetterTopic(Topics.reservations)];

const clients: { disconnect(): Promise<void> }[] = [];

function kafkaAs(security: KafkaSecurity): Kafka {
  // No retries: a refusal is final, and the test should not wait out kafkajs' backoff.
  return createKafka({ brokers, clientId: uniqueName('acl-probe'), security });
}

function as(principal: KafkaPrincipal): Kafka {
  return kafkaAs(kafkaSaslSecurity(credentials, principal));
}

/** Produces one record (not JSON: a consumer that ever reads it dead-letters it) to `topic` as `kafka`. */
async function produce(kafka: Kafka, topic: string): Promise<void> {
  const producer = kafka.producer({ allowAutoTopicCreation: false, retry: { retries: 0 } });
  clients.push(producer);
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: [{ key: 'acl-probe', value: 'acl-probe: not an event' }] });
}

/**
 * Joins `groupId` on `topic` and resolves once a fetch of its partitions came back (the group let
 * it in, and the topic let it read), or rejects with the broker's refusal of either.
 */
async function consume(kafka: Kafka, groupId: string, topic: string): Promise<void> {
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 100, retry: { retries: 0 } });
  clients.push(consumer);
  await consumer.connect();
  await consumer.subscribe({ topics: [topic] });
  await new Promise<void>((resolve, reject) => {
    consumer.on(consumer.events.FETCH, () => resolve());
    consumer.on(consumer.events.CRASH, (event) => reject(event.payload.error));
    consumer.run({ eachMessage: async () => undefined }).catch(reject);
  });
}

const AUTHORIZATION_FAILED = /TOPIC_AUTHORIZATION_FAILED|GROUP_AUTHORIZATION_FAILED|not authorized/i;
/**
 * A group the principal may not use: the broker answers FindCoordinator with
 * GROUP_AUTHORIZATION_FAILED, which kafkajs reports as "Failed to find group coordinator" (it asks
 * each broker, then gives up). The same client joins its own group on the same topic just before,
 * so the group's name is the only difference.
 */
const GROUP_REFUSED = /GROUP_AUTHORIZATION_FAILED|Failed to find group coordinator/;

describe('Kafka authentication and ACLs of the local broker', () => {
  beforeAll(async () => {
    // As the tooling's super user: the topics exist whichever test ran first.
    await ensureTopics(createKafka({ brokers, clientId: uniqueName('acl-setup') }), ALL_TOPICS, 3);
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.disconnect().catch(() => undefined)));
  });

  it('when a client has no credentials, then it cannot even read metadata', async () => {
    const admin = kafkaAs({}).admin({ retry: { retries: 0 } });
    clients.push(admin);
    await expect(admin.connect().then(() => admin.listTopics())).rejects.toThrow();
  });

  it('when a client sends a wrong password, then SCRAM refuses it', async () => {
    const admin = kafkaAs({ sasl: { mechanism: 'scram-sha-512', username: 'orders', password: 'not-the-password' } }).admin({
      retry: { retries: 0 },
    });
    clients.push(admin);
    await expect(admin.connect()).rejects.toThrow(/SASL|authentication/i);
  });

  it('when orders writes its own topic, then the broker takes it; the reservations topic, or a dead-letter topic not its own, it refuses', async () => {
    await expect(produce(as('orders'), Topics.orders)).resolves.toBeUndefined();
    await expect(produce(as('orders'), deadLetterTopic(Topics.reservations))).resolves.toBeUndefined();
    await expect(produce(as('orders'), Topics.reservations)).rejects.toThrow(AUTHORIZATION_FAILED);
    await expect(produce(as('orders'), deadLetterTopic(Topics.orders))).rejects.toThrow(AUTHORIZATION_FAILED);
  });

  it('when inventory writes the orders topic or the dead letters of reservations, then the broker refuses; its own dead-letter topic it takes', async () => {
    await expect(produce(as('inventory'), deadLetterTopic(Topics.orders))).resolves.toBeUndefined();
    await expect(produce(as('inventory'), Topics.orders)).rejects.toThrow(AUTHORIZATION_FAILED);
    await expect(produce(as('inventory'), deadLetterTopic(Topics.reservations))).rejects.toThrow(AUTHORIZATION_FAILED);
  });

  it("when a service joins its own consumer group, then it is assigned; another service's group, or a topic it does not consume, is refused", async () => {
    await expect(consume(as('inventory'), uniqueName('inventory-acl'), Topics.orders)).resolves.toBeUndefined();
    await expect(consume(as('inventory'), uniqueName('orders-acl'), Topics.orders)).rejects.toThrow(GROUP_REFUSED);
    await expect(consume(as('inventory'), uniqueName('inventory-acl'), Topics.reservations)).rejects.toThrow(AUTHORIZATION_FAILED);
    await expect(consume(as('orders'), uniqueName('orders-acl'), Topics.orders)).rejects.toThrow(AUTHORIZATION_FAILED);
  });

  it('when ops reads a dead-letter topic, then it may; writing one, or joining a service group, it may not', async () => {
    await expect(consume(as('ops'), uniqueName(OPS_GROUP_PREFIX), deadLetterTopic(Topics.orders))).resolves.toBeUndefined();
    await expect(produce(as('ops'), deadLetterTopic(Topics.orders))).rejects.toThrow(AUTHORIZATION_FAILED);
    await expect(consume(as('ops'), uniqueName('inventory-ops'), deadLetterTopic(Topics.orders))).rejects.toThrow(GROUP_REFUSED);
  });
});
