import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { newSigningKeyPair, type SigningKeyPair, signingKeyEnv, verifyKeyEntry } from '@libs/envelope';
import { findRepoRoot } from '../environment/repo-root.js';
import { type ServiceName, services } from '../services/service-catalog.js';

/** One Ed25519 key pair per producing service, by service name (the private halves are secret). */
type ProducerKeysFile = Record<string, SigningKeyPair>;

/** Where the local envelope signing keys live: `MESSAGE_SIGNING_LOCAL_FILE`, else `.local/message-signing/producer-keys.json`. */
export function localSigningKeysFile(source: NodeJS.ProcessEnv = process.env): string {
  return source.MESSAGE_SIGNING_LOCAL_FILE || join(findRepoRoot(), '.local', 'message-signing', 'producer-keys.json');
}

/** The services whose outbox publishes something: each signs with a key of its own. */
const producers = () => services.filter((service) => service.produced.length > 0).map((service) => service.name);

function readKeys(file: string): ProducerKeysFile | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ProducerKeysFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file} is not a signing keys file (${(error as Error).message}); delete it to make a new one`);
  }
}

/**
 * The key pair of every producing service, made on first use (mode 600, git-ignored), as the
 * development issuer makes its key pair: the local stack, the tests, chaos and the bench sign and
 * verify every envelope without anyone setting a variable, so the default a user copies is the
 * signed one. `create: false` (a reader such as the ops tool): undefined when there are none yet.
 */
export function localProducerKeys(
  source: NodeJS.ProcessEnv = process.env,
  options: { create?: boolean } = {},
): ProducerKeysFile | undefined {
  const file = localSigningKeysFile(source);
  const keys = readKeys(file);
  const missing = producers().filter((producer) => !keys?.[producer]);
  if (missing.length === 0 || options.create === false) return keys;
  const stamp = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  const made: ProducerKeysFile = { ...keys, ...Object.fromEntries(missing.map((name) => [name, newSigningKeyPair(`${name}-${stamp}`)])) };
  mkdirSync(dirname(file), { recursive: true });
  const scratch = `${file}.${process.pid}.tmp`;
  writeFileSync(scratch, `${JSON.stringify(made, null, 2)}\n`, { mode: 0o600 });
  // Two processes making the file at once: the last rename wins and both read it back.
  renameSync(scratch, file);
  return readKeys(file)!;
}

/** `MESSAGE_VERIFY_KEYS` with the public key of each of `names` (every producer by default). */
function verifyKeys(keys: ProducerKeysFile, names: readonly string[] = Object.keys(keys)): string {
  return names
    .filter((name) => keys[name])
    .map((name) => verifyKeyEntry(name, keys[name]))
    .join(',');
}

/**
 * What `service` gets, and nothing more: its own `MESSAGE_SIGNING_KEY` when it produces, and in
 * `MESSAGE_VERIFY_KEYS` the public keys of the producers of what it consumes. A service that
 * produces and consumes nothing (loyalty) gets no variable at all.
 */
export function localServiceSigningEnv(service: ServiceName, source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const keys = localProducerKeys(source)!;
  const descriptor = services.find((each) => each.name === service)!;
  const needed = [...new Set(descriptor.consumed.flatMap((consumed) => consumed.accepts.map((declaration) => declaration.producer)))];
  return {
    ...(descriptor.produced.length > 0 && { MESSAGE_SIGNING_KEY: signingKeyEnv(keys[service]) }),
    ...(needed.length > 0 && { MESSAGE_VERIFY_KEYS: verifyKeys(keys, needed) }),
  };
}

/** {@link localServiceSigningEnv} of every service. */
export function localSigningEnvs(source: NodeJS.ProcessEnv = process.env): Record<ServiceName, Record<string, string>> {
  return Object.fromEntries(services.map((service) => [service.name, localServiceSigningEnv(service.name, source)])) as Record<
    ServiceName,
    Record<string, string>
  >;
}

/**
 * `MESSAGE_VERIFY_KEYS` with every local producer's public key: what a reader of every topic (the
 * ops tool, the tests' topic readers) verifies with. `create: false`: `{}` when there are no keys yet.
 */
export function localVerifyEnv(source: NodeJS.ProcessEnv = process.env, options: { create?: boolean } = {}): Record<string, string> {
  const keys = localProducerKeys(source, options);
  return keys ? { MESSAGE_VERIFY_KEYS: verifyKeys(keys) } : {};
}

/** `producer`'s local `MESSAGE_SIGNING_KEY`: for test fixtures that sign as that producer's relay would. */
export function localProducerSigningKey(producer: string, source: NodeJS.ProcessEnv = process.env): string {
  const pair = localProducerKeys(source)?.[producer];
  if (!pair) throw new Error(`no local signing key for "${producer}" in ${localSigningKeysFile(source)}: it produces nothing`);
  return signingKeyEnv(pair);
}
