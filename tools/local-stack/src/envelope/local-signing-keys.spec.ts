import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { messageSigning, messageVerification, signatureHeaders, signatureProblem } from '@libs/envelope';
import { localProducerKeys, localServiceSigningEnv, localVerifyEnv } from './local-signing-keys.js';

describe('local signing keys (a key pair per producing service, made on first use)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'local-signing-'));
  const source = { MESSAGE_SIGNING_LOCAL_FILE: join(directory, 'producer-keys.json') };
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('when nothing exists yet and a reader asks not to create, then it gets no keys and no file is made', () => {
    expect(localVerifyEnv(source, { create: false })).toEqual({});
    expect(localProducerKeys(source, { create: false })).toBeUndefined();
  });

  it('when first used, then it makes one pair per producing service (not loyalty), mode 600, and reads the same ones back', () => {
    const made = localProducerKeys(source)!;
    expect(Object.keys(made).sort()).toEqual(['inventory', 'orders']);
    expect(statSync(source.MESSAGE_SIGNING_LOCAL_FILE).mode & 0o777).toBe(0o600);
    expect(localProducerKeys(source)).toEqual(made);
  });

  it("when each service's environment is built, then it holds only its own private key and the public keys of the producers it consumes; loyalty holds no key", () => {
    const keys = localProducerKeys(source)!;
    const orders = localServiceSigningEnv('orders', source);
    const inventory = localServiceSigningEnv('inventory', source);
    expect(localServiceSigningEnv('loyalty', source)).toEqual({});
    expect(orders).toEqual({
      MESSAGE_SIGNING_KEY: `${keys.orders.id}:${keys.orders.privateKey}`,
      MESSAGE_VERIFY_KEYS: `inventory:${keys.inventory.id}:${keys.inventory.publicKey}`,
    });
    expect(inventory).toEqual({
      MESSAGE_SIGNING_KEY: `${keys.inventory.id}:${keys.inventory.privateKey}`,
      MESSAGE_VERIFY_KEYS: `orders:${keys.orders.id}:${keys.orders.publicKey}`,
    });
    expect(JSON.stringify(orders)).not.toContain(keys.inventory.privateKey);
    expect(JSON.stringify(inventory)).not.toContain(keys.orders.privateKey);
  });

  it("when orders signs with its environment, then inventory's verify keys accept it as orders' and refuse it as inventory's", () => {
    const signer = messageSigning({
      MESSAGE_SIGNING_KEY: localServiceSigningEnv('orders', source).MESSAGE_SIGNING_KEY,
      MESSAGE_SIGNING_DISABLED: false,
      NODE_ENV: 'production',
    });
    const verifier = messageVerification({
      MESSAGE_VERIFY_KEYS: localServiceSigningEnv('inventory', source).MESSAGE_VERIFY_KEYS,
      MESSAGE_SIGNATURES_REQUIRED: true,
      MESSAGE_SIGNING_DISABLED: false,
      NODE_ENV: 'production',
    });
    const parts = { topic: 'orders.order.v1', key: 'o1', headers: { 'message-id': 'm1' }, payload: { orderId: 'o1' } };
    const signed = { ...parts, headers: { ...parts.headers, ...signatureHeaders(parts, signer.signWith!) } };
    expect(signatureProblem(signed, verifier.keys, 'orders')).toBeUndefined();
    expect(signatureProblem(signed, verifier.keys, 'inventory')).toMatch(/is produced by inventory only/);
  });
});
