import { describe, expect, it } from '@jest/globals';
import { ConfigValidationError, loadConfig } from '@libs/config';
import { kafkaSecurity, kafkaSecurityEnv, kafkaSecurityFromEnvironment } from './kafka-security.config.js';

const pem = (name: string) => Buffer.from(`-----BEGIN ${name}-----\n-----END ${name}-----\n`);
const files: Record<string, Buffer> = { '/tls/ca.pem': pem('CA'), '/tls/client.pem': pem('CERTIFICATE'), '/tls/client.key': pem('KEY') };
const readFile = (path: string) => {
  const found = files[path];
  if (!found) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
  return found;
};
const configOf = (source: Record<string, string>) => loadConfig(kafkaSecurityEnv, source);

function problemsOf(source: Record<string, string>): readonly string[] {
  try {
    kafkaSecurity(configOf(source), readFile);
    return [];
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.problems;
    throw error;
  }
}

describe('kafkaSecurity (KAFKA_SASL_* and KAFKA_TLS_* to kafkajs ssl and sasl)', () => {
  it('when nothing is set, then plaintext without authentication, as the local broker offers', () => {
    expect(kafkaSecurity(configOf({}), readFile)).toEqual({});
    expect(kafkaSecurityFromEnvironment({})).toEqual({});
  });

  it('when SCRAM over TLS with a CA, client certificate and server name, then kafkajs gets each of them', () => {
    const security = kafkaSecurity(
      configOf({
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'orders',
        KAFKA_SASL_PASSWORD: 's3cret',
        KAFKA_TLS_ENABLED: 'true',
        KAFKA_TLS_CA_FILE: '/tls/ca.pem',
        KAFKA_TLS_CERT_FILE: '/tls/client.pem',
        KAFKA_TLS_KEY_FILE: '/tls/client.key',
        KAFKA_TLS_SERVERNAME: 'kafka.internal',
      }),
      readFile,
    );
    expect(security).toEqual({
      sasl: { mechanism: 'scram-sha-512', username: 'orders', password: 's3cret' },
      ssl: {
        rejectUnauthorized: true,
        ca: [files['/tls/ca.pem']],
        cert: files['/tls/client.pem'],
        key: files['/tls/client.key'],
        servername: 'kafka.internal',
      },
    });
  });

  it('when a mechanism has no user or password, then one error names each missing variable and never the password', () => {
    expect(problemsOf({ KAFKA_SASL_MECHANISM: 'scram-sha-256' })).toEqual([
      'KAFKA_SASL_USERNAME is required with KAFKA_SASL_MECHANISM=scram-sha-256',
      'KAFKA_SASL_PASSWORD is required with KAFKA_SASL_MECHANISM=scram-sha-256',
    ]);
    expect(problemsOf({ KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'hunter2' }).join(' ')).not.toContain('hunter2');
  });

  it('when PLAIN is chosen without TLS, then it is refused: the password would cross the network as is', () => {
    expect(problemsOf({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })).toEqual([
      expect.stringContaining('KAFKA_TLS_ENABLED must be true with KAFKA_SASL_MECHANISM=plain'),
    ]);
  });

  it('when TLS files contradict the settings or cannot be read, then every problem is named at once', () => {
    expect(problemsOf({ KAFKA_TLS_CA_FILE: '/tls/ca.pem', KAFKA_TLS_CERT_FILE: '/tls/missing.pem' })).toEqual([
      'KAFKA_TLS_CA_FILE is set but KAFKA_TLS_ENABLED is false',
      'KAFKA_TLS_CERT_FILE is set but KAFKA_TLS_ENABLED is false',
      'KAFKA_TLS_CERT_FILE cannot be read: ENOENT',
      'KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE go together: set both or neither',
    ]);
  });

  it('when the mechanism is not one kafkajs supports, then the variable is named', () => {
    expect(() => configOf({ KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(/KAFKA_SASL_MECHANISM must match/);
  });
});
