import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { SASLOptions } from 'kafkajs';
import { ConfigValidationError, env, type EnvConfig, type LaptopSetting, loadConfig } from '@libs/config';

/**
 * How every Kafka client of this project authenticates and encrypts: apps, relay, dead-letter
 * publisher, ops tools, bench, chaos and the local-stack probes. Default: plaintext without
 * authentication, which is what the local broker offers; a production cluster should require
 * SASL over TLS (see docs/transport-security.md).
 */
export const kafkaSecurityEnv = {
  KAFKA_SASL_MECHANISM: env.string({
    description:
      'SASL mechanism: plain, scram-sha-256 or scram-sha-512; empty: no authentication. plain needs KAFKA_TLS_ENABLED (it sends the password)',
    pattern: /^(plain|scram-sha-256|scram-sha-512)$/,
    default: '',
  }),
  KAFKA_SASL_USERNAME: env.string({ description: 'SASL user name; required with KAFKA_SASL_MECHANISM', default: '' }),
  KAFKA_SASL_PASSWORD: env.string({ description: 'SASL password (secret); required with KAFKA_SASL_MECHANISM', default: '' }),
  KAFKA_TLS_ENABLED: env.boolean({ description: 'Connect to the brokers over TLS', default: false }),
  KAFKA_PLAINTEXT_ALLOWED: env.boolean({
    description:
      'Allow KAFKA_TLS_ENABLED=false under NODE_ENV=production, on purpose (logged at every start): SASL passwords and every record cross the network in clear',
    default: false,
  }),
  KAFKA_TLS_CA_FILE: env.string({
    description: "PEM file of the CA(s) that signed the brokers' certificates; empty: the system's trusted CAs",
    default: '',
  }),
  KAFKA_TLS_CERT_FILE: env.string({ description: 'PEM client certificate for mutual TLS; needs KAFKA_TLS_KEY_FILE', default: '' }),
  KAFKA_TLS_KEY_FILE: env.string({ description: 'PEM private key of KAFKA_TLS_CERT_FILE (secret)', default: '' }),
  KAFKA_TLS_SERVERNAME: env.string({
    description: "Name checked against the broker certificate (SNI) when it differs from the bootstrap host; empty: the host's",
    default: '',
  }),
  KAFKA_TLS_REJECT_UNAUTHORIZED: env.boolean({
    description:
      'Refuse a broker whose certificate does not verify; false accepts any certificate, so anyone on the path can read and forge traffic',
    default: true,
  }),
};

export type KafkaSecurityConfig = EnvConfig<typeof kafkaSecurityEnv>;

/** What {@link kafkaSecurityEnv} allows only on a laptop; see `refuseLaptopSettings` of `@libs/config`. */
export function kafkaLaptopSettings(config: KafkaSecurityConfig): LaptopSetting[] {
  return [
    {
      present: !config.KAFKA_TLS_ENABLED,
      risk: 'KAFKA_TLS_ENABLED=false: SASL passwords and every record cross the network in clear',
      optOut: 'KAFKA_PLAINTEXT_ALLOWED',
      allowed: config.KAFKA_PLAINTEXT_ALLOWED,
    },
  ];
}

/** The `ssl` and `sasl` options of a kafkajs client; both absent means plaintext, no authentication. */
export interface KafkaSecurity {
  ssl?: ConnectionOptions;
  sasl?: SASLOptions;
}

const TLS_FILES = ['KAFKA_TLS_CA_FILE', 'KAFKA_TLS_CERT_FILE', 'KAFKA_TLS_KEY_FILE'] as const;

/**
 * The kafkajs `ssl`/`sasl` options of `config`, its files read once, here, at start-up. Throws one
 * {@link ConfigValidationError} naming every variable that is missing or contradicts another (a
 * mechanism without a password, a certificate without its key, a TLS file with TLS off, a file
 * that cannot be read), and never a secret.
 */
export function kafkaSecurity(config: KafkaSecurityConfig, readFile: (path: string) => Buffer = readFileSync): KafkaSecurity {
  const problems: string[] = [];
  const mechanism = config.KAFKA_SASL_MECHANISM;
  if (mechanism) {
    if (!config.KAFKA_SASL_USERNAME) problems.push(`KAFKA_SASL_USERNAME is required with KAFKA_SASL_MECHANISM=${mechanism}`);
    if (!config.KAFKA_SASL_PASSWORD) problems.push(`KAFKA_SASL_PASSWORD is required with KAFKA_SASL_MECHANISM=${mechanism}`);
    if (mechanism === 'plain' && !config.KAFKA_TLS_ENABLED) {
      problems.push('KAFKA_TLS_ENABLED must be true with KAFKA_SASL_MECHANISM=plain: PLAIN sends the password as is');
    }
  } else {
    for (const name of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'] as const) {
      if (config[name]) problems.push(`${name} is set but KAFKA_SASL_MECHANISM is empty: set the mechanism, or remove ${name}`);
    }
  }
  const files: Partial<Record<(typeof TLS_FILES)[number], Buffer>> = {};
  for (const name of TLS_FILES) {
    if (!config[name]) continue;
    if (!config.KAFKA_TLS_ENABLED) problems.push(`${name} is set but KAFKA_TLS_ENABLED is false`);
    try {
      files[name] = readFile(config[name]);
    } catch (error) {
      problems.push(`${name} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  if (Boolean(config.KAFKA_TLS_CERT_FILE) !== Boolean(config.KAFKA_TLS_KEY_FILE)) {
    problems.push('KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE go together: set both or neither');
  }
  if (config.KAFKA_TLS_SERVERNAME && !config.KAFKA_TLS_ENABLED) problems.push('KAFKA_TLS_SERVERNAME is set but KAFKA_TLS_ENABLED is false');
  if (problems.length > 0) throw new ConfigValidationError(problems);

  const security: KafkaSecurity = {};
  if (config.KAFKA_TLS_ENABLED) {
    security.ssl = {
      rejectUnauthorized: config.KAFKA_TLS_REJECT_UNAUTHORIZED,
      ...(files.KAFKA_TLS_CA_FILE && { ca: [files.KAFKA_TLS_CA_FILE] }),
      ...(files.KAFKA_TLS_CERT_FILE && { cert: files.KAFKA_TLS_CERT_FILE }),
      ...(files.KAFKA_TLS_KEY_FILE && { key: files.KAFKA_TLS_KEY_FILE }),
      ...(config.KAFKA_TLS_SERVERNAME && { servername: config.KAFKA_TLS_SERVERNAME }),
    };
  }
  if (mechanism) {
    const credentials = { username: config.KAFKA_SASL_USERNAME, password: config.KAFKA_SASL_PASSWORD };
    security.sasl =
      mechanism === 'plain'
        ? { mechanism: 'plain', ...credentials }
        : mechanism === 'scram-sha-256'
          ? { mechanism: 'scram-sha-256', ...credentials }
          : { mechanism: 'scram-sha-512', ...credentials };
  }
  return security;
}

/**
 * {@link kafkaSecurity} of the process environment: for the clients that have no app
 * configuration of their own (ops tools, bench, chaos, test probes), so they connect exactly as
 * the apps do. Throws like {@link kafkaSecurity}.
 */
export function kafkaSecurityFromEnvironment(source: NodeJS.ProcessEnv = process.env): KafkaSecurity {
  return kafkaSecurity(loadConfig(kafkaSecurityEnv, source));
}
