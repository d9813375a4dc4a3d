import { describe, expect, it } from '@jest/globals';
import type { SASLOptions } from 'kafkajs';
import { testInfrastructure } from '@test/fixtures';
import { freePort, uniqueName } from '@tools/test-support';
import { kafkaCredentialsRefused, probeKafka } from './kafka-start-up.probe.js';
import { kafkaSecurityFromEnvironment } from './kafka-security.config.js';

const { brokers } = testInfrastructure();

/** What the probe threw, or undefined when it resolved. */
const outcome = (promise: Promise<void>) => promise.then(() => undefined).catch((error: unknown) => error);

describe('probeKafka, the start-up wait for the cluster (real broker)', () => {
  it('when the broker answers, then the probe resolves', async () => {
    await expect(probeKafka({ brokers, clientId: uniqueName('test-probe') })).resolves.toBeUndefined();
  });

  it('when nothing listens at the address, then it fails within seconds and waiting may fix it', async () => {
    const started = Date.now();
    const error = await outcome(
      probeKafka({ brokers: [`127.0.0.1:${await freePort()}`], clientId: uniqueName('test-probe'), security: {} }),
    );
    expect(error).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(kafkaCredentialsRefused(error)).toBeUndefined();
  });

  it('when the broker refuses the SASL password, then the refusal names KAFKA_SASL_PASSWORD and not the password', async () => {
    const security = kafkaSecurityFromEnvironment();
    if (!security.sasl) throw new Error('the test broker is expected to require SASL');
    const wrong = uniqueName('not-the-password');
    const sasl = { ...security.sasl, password: wrong } as SASLOptions;
    const refusal = kafkaCredentialsRefused(
      await outcome(probeKafka({ brokers, clientId: uniqueName('test-probe'), security: { ...security, sasl } })),
    );
    expect(refusal).toMatch(/^KAFKA_SASL_PASSWORD: the broker refused the credentials of KAFKA_SASL_USERNAME/);
    expect(refusal).not.toContain(wrong);
  });
});
