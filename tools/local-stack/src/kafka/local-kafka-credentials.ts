import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KafkaSecurity } from '@libs/kafka';
import { findRepoRoot } from '../environment/repo-root.js';
import { KAFKA_USERS, type KafkaPrincipal, type KafkaUser } from './kafka-principals.js';

/** The SASL mechanism of every local user. */
const MECHANISM = 'scram-sha-512';

/** The passwords of the local brokers' SCRAM users, by user. */
export type KafkaCredentials = Readonly<Record<KafkaUser, string>>;

/**
 * Where scripts/kafka-local.sh keeps the local users' passwords (`KAFKA_LOCAL_CREDENTIALS_FILE`,
 * default `.local/kafka-credentials.properties`): one file for every local broker and cluster of
 * this clone, so a client of the tooling authenticates against any of them.
 */
export function localKafkaCredentialsFile(source: NodeJS.ProcessEnv = process.env): string {
  return source.KAFKA_LOCAL_CREDENTIALS_FILE || join(findRepoRoot(), '.local', 'kafka-credentials.properties');
}

/**
 * The local users' passwords, made by the broker script when the file is missing (its
 * `credentials` command), as the development token issuer makes its key pair: nothing to set by
 * hand, nothing in the repository or an image.
 */
export function localKafkaCredentials(source: NodeJS.ProcessEnv = process.env): KafkaCredentials {
  const file = localKafkaCredentialsFile(source);
  if (existsSync(file)) {
    try {
      return parseKafkaCredentials(readFileSync(file, 'utf8'), file);
    } catch {
      // incomplete: the script makes it anew
    }
  }
  execFileSync('bash', [join(findRepoRoot(), 'scripts/kafka-local.sh'), 'credentials'], {
    env: { ...process.env, ...source, KAFKA_LOCAL_CREDENTIALS_FILE: file },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return parseKafkaCredentials(readFileSync(file, 'utf8'), file);
}

/** The `user=password` lines of a credentials file; throws naming every user it lacks. */
export function parseKafkaCredentials(text: string, file = 'the credentials file'): KafkaCredentials {
  const entries = new Map(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
  );
  const missing = KAFKA_USERS.filter((user) => !entries.get(user));
  if (missing.length > 0) throw new Error(`${file} has no password for ${missing.join(', ')}`);
  return Object.fromEntries(KAFKA_USERS.map((user) => [user, entries.get(user)!])) as KafkaCredentials;
}

/** The `KAFKA_SASL_*` variables of a process that authenticates as `principal`. */
export function kafkaSaslEnv(credentials: KafkaCredentials, principal: KafkaPrincipal): Record<string, string> {
  return { KAFKA_SASL_MECHANISM: MECHANISM, KAFKA_SASL_USERNAME: principal, KAFKA_SASL_PASSWORD: credentials[principal] };
}

/** The kafkajs `sasl` option of a client that authenticates as `principal` (plaintext: loopback only). */
export function kafkaSaslSecurity(credentials: KafkaCredentials, principal: KafkaPrincipal): KafkaSecurity {
  return { sasl: { mechanism: MECHANISM, username: principal, password: credentials[principal] } };
}
