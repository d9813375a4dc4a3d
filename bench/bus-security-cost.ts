// What the event bus's security costs per order: envelope signing (an Ed25519 signature per
// record, signed once by the relay and verified once by the consumer; an order makes two records,
// OrderCreated and its answer) and SASL/SCRAM (paid per connection, at its handshake: every request
// after it travels as before). Prints a Markdown table. Run after a build, with the local broker
// up (`npm start`, or `scripts/kafka-local.sh start`): `node dist/bench/bus-security-cost.js`.
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { Topics } from '@libs/contracts';
import { Headers, newSigningKeyPair, signatureHeaders, signatureProblem, type SigningKey } from '@libs/envelope';
import { createKafka } from '@libs/kafka';
import { kafkaSaslSecurity, localEnvironment, localKafkaCredentials, uniqueName } from '@tools/local-stack';

const RECORDS = 20_000;
const CONNECTIONS = 20;
const RECORDS_PER_ORDER = 2;

/** CPU µs (user + system) of `work`, per unit of `units`. */
async function cpuPer(units: number, work: () => Promise<void> | void): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / units;
}

function orderCreatedParts(index: number) {
  const orderId = `0b9f8f21-39d9-4c39-8795-${String(index).padStart(12, '0')}`;
  return {
    topic: Topics.orders,
    key: orderId,
    headers: {
      [Headers.messageId]: `7c1e2a90-0000-4000-8000-${String(index).padStart(12, '0')}`,
      [Headers.messageType]: 'OrderCreated',
      [Headers.schemaVersion]: '1',
      [Headers.aggregateId]: orderId,
      [Headers.occurredAt]: new Date().toISOString(),
      [Headers.correlationId]: orderId,
    },
    payload: {
      orderId,
      customerId: 'c1',
      items: [{ sku: 'SKU-APPLE', quantity: 2, unitPriceCents: 1050 }],
      totalCents: 2100,
      createdAt: new Date().toISOString(),
    },
  };
}

async function signingCost(): Promise<{ signUs: number; verifyUs: number }> {
  const pair = newSigningKeyPair('bench');
  const key: SigningKey = {
    id: pair.id,
    privateKey: createPrivateKey({ key: Buffer.from(pair.privateKey, 'base64'), format: 'der', type: 'pkcs8' }),
  };
  const publicKey = createPublicKey(key.privateKey);
  const keys = new Map([[key.id, { id: key.id, producer: 'orders', publicKey }]]);
  const parts = Array.from({ length: RECORDS }, (_, index) => orderCreatedParts(index));
  const signed = parts.map((part) => ({ ...part, headers: { ...part.headers, ...signatureHeaders(part, key) } }));
  // Warm-up: the first thousands of calls run before the JIT has compiled them.
  for (const part of signed) if (signatureProblem(part, keys, 'orders')) throw new Error('a signature did not verify');
  const signUs = await cpuPer(RECORDS, () => void parts.forEach((part) => signatureHeaders(part, key)));
  const verifyUs = await cpuPer(RECORDS, () => {
    for (const part of signed) if (signatureProblem(part, keys, 'orders')) throw new Error('a signature did not verify');
  });
  return { signUs, verifyUs };
}

async function saslConnectionCost(brokers: string[]): Promise<number> {
  const security = kafkaSaslSecurity(localKafkaCredentials(), 'orders');
  const connect = async () => {
    const admin = createKafka({ brokers, clientId: uniqueName('bench-sasl'), security }).admin();
    await admin.connect();
    await admin.disconnect();
  };
  await connect();
  return cpuPer(CONNECTIONS, async () => {
    for (let i = 0; i < CONNECTIONS; i++) await connect();
  });
}

const brokers = localEnvironment().KAFKA_BROKERS!.split(',');
const { signUs, verifyUs } = await signingCost();
const connectUs = await saslConnectionCost(brokers);
console.log('| what | CPU µs (this process) | per order |\n|---|---:|---:|');
console.log(`| sign one record (relay), Ed25519 over canonical JSON | ${signUs.toFixed(1)} | ${(signUs * RECORDS_PER_ORDER).toFixed(1)} |`);
console.log(`| verify one record (inbox) | ${verifyUs.toFixed(1)} | ${(verifyUs * RECORDS_PER_ORDER).toFixed(1)} |`);
console.log(
  `| SCRAM-SHA-512 connect + disconnect (client side; an app opens a handful per process, once) | ${connectUs.toFixed(0)} | ~0 (per connection, not per order) |`,
);
