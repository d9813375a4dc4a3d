import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { ConfigValidationError, env, type EnvConfig, nodeEnv } from '@libs/config';
import type { SigningKey, VerifyKey } from './message-signature.js';

const signingDisabled = {
  MESSAGE_SIGNING_DISABLED: env.boolean({
    description:
      'Run without envelope signing where NODE_ENV=production would refuse to start: the relay publishes unsigned records and consumers accept them, so anyone who can produce to a topic can forge or suppress an event. Logged as a warning at every start. Contradicts MESSAGE_SIGNING_KEY and MESSAGE_VERIFY_KEYS',
    default: false,
  }),
  ...nodeEnv,
};

/**
 * Envelope signing, the producing side: the outbox relay signs what it publishes with this
 * service's own private key. A service that produces nothing has none of these variables.
 */
export const messageSigningEnv = {
  MESSAGE_SIGNING_KEY: env.string({
    description:
      "This service's own Ed25519 private key, <key id>:<base64 PKCS#8 DER> (openssl genpkey -algorithm ed25519 -outform DER | base64 -w0); the relay signs every record with it. Only this service holds it; consumers get its public half in MESSAGE_VERIFY_KEYS. Empty: records are published unsigned, and NODE_ENV=production refuses to start (secret; default empty)",
    default: '',
  }),
  ...signingDisabled,
};

/**
 * Envelope signing, the consuming side: the public keys of the producing services. A record is
 * accepted only when signed by a key of its message type's declared producer.
 */
export const messageVerificationEnv = {
  MESSAGE_VERIFY_KEYS: env.string({
    description:
      "Public keys of the producing services, comma-separated <producer>:<key id>:<base64 SPKI DER> (openssl pkey -pubout -outform DER | base64 -w0); a record is accepted only when signed with a key of its type's declared producer. Several per producer while a rotation is under way: add the new public key here, then switch the producer's MESSAGE_SIGNING_KEY, then remove the old one. Empty: consumers accept unsigned records, and NODE_ENV=production refuses to start",
    default: '',
  }),
  MESSAGE_SIGNATURES_REQUIRED: env.boolean({
    description:
      'With MESSAGE_VERIFY_KEYS set, refuse records without a signature (a bad signature, or one by another producer, is always refused). false only while rolling signing out, producers first; it lets forged unsigned records through',
    default: true,
  }),
  ...signingDisabled,
};

export type MessageSigningConfig = EnvConfig<typeof messageSigningEnv>;
export type MessageVerificationConfig = EnvConfig<typeof messageVerificationEnv>;

/** The producing side, parsed: what the relay signs with. */
export interface MessageSigning {
  /** Set when this process publishes unsigned records, said at every start. */
  readonly warning: string | undefined;
  /** The key the relay signs with; undefined means it does not sign. */
  readonly signWith: SigningKey | undefined;
}

/** The consuming side, parsed: what consumers accept. */
export interface MessageVerification {
  /** Set when this process accepts unsigned records, said at every start. */
  readonly warning: string | undefined;
  /** The public keys by id; empty means consumers do not verify. */
  readonly keys: ReadonlyMap<string, VerifyKey>;
  /** True when an unsigned record is refused (keys configured and signatures required). */
  readonly required: boolean;
}

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const PRODUCER = /^[a-z][a-z0-9-]{0,63}$/;
const OPT_OUT_WARNING =
  'envelope signing is DISABLED (MESSAGE_SIGNING_DISABLED=true): unsigned records are published and accepted, and anyone who can produce to a topic can forge or suppress an event';

function ed25519(make: () => KeyObject): KeyObject | undefined {
  try {
    const key = make();
    return key.asymmetricKeyType === 'ed25519' ? key : undefined;
  } catch {
    return undefined;
  }
}

const signingMemo = new Map<string, MessageSigning>();

/**
 * Parses and checks {@link messageSigningEnv} at start-up; throws one {@link ConfigValidationError}
 * naming every problem (never a key). In production the key is required unless signing is
 * disabled on purpose. Memoised per value.
 */
export function messageSigning(config: MessageSigningConfig): MessageSigning {
  const memo = [config.MESSAGE_SIGNING_KEY, config.MESSAGE_SIGNING_DISABLED, config.NODE_ENV].join('\n');
  const known = signingMemo.get(memo);
  if (known) return known;
  const problems: string[] = [];
  const entry = config.MESSAGE_SIGNING_KEY.trim();
  let signWith: SigningKey | undefined;
  if (entry !== '') {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon);
    const privateKey = ed25519(() =>
      createPrivateKey({ key: Buffer.from(entry.slice(colon + 1), 'base64'), format: 'der', type: 'pkcs8' }),
    );
    if (!KEY_ID.test(id)) problems.push('MESSAGE_SIGNING_KEY must be <key id>:<base64 PKCS#8>, the id 1 to 64 of A-Z a-z 0-9 . _ -');
    else if (!privateKey) problems.push(`MESSAGE_SIGNING_KEY "${id}" is not a base64 PKCS#8 DER Ed25519 private key`);
    else signWith = { id, privateKey };
  }
  if (config.MESSAGE_SIGNING_DISABLED && entry !== '') {
    problems.push('MESSAGE_SIGNING_DISABLED=true contradicts MESSAGE_SIGNING_KEY: remove one of them');
  }
  if (config.NODE_ENV === 'production' && !config.MESSAGE_SIGNING_DISABLED && entry === '') {
    problems.push(
      'MESSAGE_SIGNING_KEY is required with NODE_ENV=production: the outbox relay would publish unsigned records (MESSAGE_SIGNING_DISABLED=true runs without, on purpose)',
    );
  }
  if (problems.length > 0) throw new ConfigValidationError(problems);
  const warning = signWith
    ? undefined
    : config.MESSAGE_SIGNING_DISABLED
      ? OPT_OUT_WARNING
      : 'envelope signing is off (no MESSAGE_SIGNING_KEY): records are published unsigned; NODE_ENV=production refuses this';
  const signing = { warning, signWith };
  signingMemo.set(memo, signing);
  return signing;
}

const verificationMemo = new Map<string, MessageVerification>();

/**
 * Parses and checks {@link messageVerificationEnv} at start-up; throws one {@link ConfigValidationError}
 * naming every problem. In production the keys are required unless signing is disabled on purpose.
 * Memoised per value: consumers call it per process.
 */
export function messageVerification(config: MessageVerificationConfig): MessageVerification {
  const memo = [config.MESSAGE_VERIFY_KEYS, config.MESSAGE_SIGNATURES_REQUIRED, config.MESSAGE_SIGNING_DISABLED, config.NODE_ENV].join(
    '\n',
  );
  const known = verificationMemo.get(memo);
  if (known) return known;
  const problems: string[] = [];
  const keys = new Map<string, VerifyKey>();
  const entries = config.MESSAGE_VERIFY_KEYS.split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const [index, entry] of entries.entries()) {
    const [producer = '', id = '', key = ''] = entry.split(':');
    const publicKey = ed25519(() => createPublicKey({ key: Buffer.from(key, 'base64'), format: 'der', type: 'spki' }));
    if (!PRODUCER.test(producer) || !KEY_ID.test(id) || entry.split(':').length !== 3)
      problems.push(
        `MESSAGE_VERIFY_KEYS entry ${index + 1} must be <producer>:<key id>:<base64 SPKI>, the producer a service name, the id 1 to 64 of A-Z a-z 0-9 . _ -`,
      );
    else if (!publicKey) problems.push(`MESSAGE_VERIFY_KEYS key "${id}" is not a base64 SPKI DER Ed25519 public key`);
    else if (keys.has(id)) problems.push(`MESSAGE_VERIFY_KEYS names key "${id}" twice`);
    else keys.set(id, { id, producer, publicKey });
  }
  if (config.MESSAGE_SIGNING_DISABLED && entries.length > 0) {
    problems.push('MESSAGE_SIGNING_DISABLED=true contradicts MESSAGE_VERIFY_KEYS: remove one of them');
  }
  if (config.NODE_ENV === 'production' && !config.MESSAGE_SIGNING_DISABLED && entries.length === 0) {
    problems.push(
      'MESSAGE_VERIFY_KEYS is required with NODE_ENV=production: without it anyone who can produce to a topic can forge or suppress events (MESSAGE_SIGNING_DISABLED=true runs without, on purpose)',
    );
  }
  if (problems.length > 0) throw new ConfigValidationError(problems);
  const warning =
    keys.size > 0
      ? undefined
      : config.MESSAGE_SIGNING_DISABLED
        ? OPT_OUT_WARNING
        : 'envelope verification is off (no MESSAGE_VERIFY_KEYS): unsigned records are accepted, and anyone who can produce to a topic can forge or suppress an event; NODE_ENV=production refuses this';
  const verification = { warning, keys, required: keys.size > 0 && config.MESSAGE_SIGNATURES_REQUIRED };
  verificationMemo.set(memo, verification);
  return verification;
}
