import { ConfigValidationError, env, type EnvConfig, nodeEnv } from '@libs/config';
import type { SigningKey } from './message-signature.js';

/**
 * Envelope signing: the relay signs what it publishes, consumers verify what they accept. Shared
 * by the outbox and the inbox, so a process that does both reads one set of keys.
 */
export const messageSigningEnv = {
  MESSAGE_SIGNING_KEYS: env.string({
    description:
      'HMAC-SHA256 keys as comma-separated <key id>:<base64 secret of at least 32 bytes>. Set: consumers verify every record and refuse unsigned or badly signed ones. Rotate by adding the new key everywhere, then switching MESSAGE_SIGNING_KEY_ID, then removing the old one. Empty: no signing, and anyone who can produce to a topic can forge an event (secret; default empty)',
    default: '',
  }),
  MESSAGE_SIGNING_KEY_ID: env.string({
    description: 'Id of the key in MESSAGE_SIGNING_KEYS that this process signs its outbox messages with; empty: it does not sign',
    default: '',
  }),
  MESSAGE_SIGNING_DISABLED: env.boolean({
    description:
      'Run without signing keys where NODE_ENV=production would refuse to start: consumers then accept unsigned records, so anyone who can produce to a topic can forge or suppress an event. Logged as a warning at every start. Contradicts MESSAGE_SIGNING_KEYS',
    default: false,
  }),
  ...nodeEnv,
  MESSAGE_SIGNATURES_REQUIRED: env.boolean({
    description:
      'With MESSAGE_SIGNING_KEYS set, refuse records without a signature (a bad signature is always refused). false only while rolling signing out, producers first; it lets forged unsigned records through',
    default: true,
  }),
};

export type MessageSigningConfig = EnvConfig<typeof messageSigningEnv>;

/** The signing configuration, parsed: what the relay signs with and what consumers accept. */
export interface MessageSigning {
  /**
   * Set when this process runs without signing, said at every start: the opt-out in production,
   * or no keys outside it (the local stack always has keys, so only a hand-made environment).
   */
  readonly warning: string | undefined;
  /** The configured keys by id; empty means consumers do not verify. */
  readonly keys: ReadonlyMap<string, SigningKey>;
  /** The key the relay signs with; undefined means it does not sign. */
  readonly signWith: SigningKey | undefined;
  /** True when an unsigned record is refused (keys configured and signatures required). */
  readonly required: boolean;
}

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const MIN_SECRET_BYTES = 32;
const parsed = new Map<string, MessageSigning>();

/**
 * Parses and checks {@link messageSigningEnv} at start-up; throws one {@link ConfigValidationError}
 * naming every problem (never a secret). Memoised per value: consumers call it per process.
 */
export function messageSigning(config: MessageSigningConfig): MessageSigning {
  const memo = [
    config.MESSAGE_SIGNING_KEYS,
    config.MESSAGE_SIGNING_KEY_ID,
    config.MESSAGE_SIGNATURES_REQUIRED,
    config.MESSAGE_SIGNING_DISABLED,
    config.NODE_ENV,
  ].join('\n');
  const known = parsed.get(memo);
  if (known) return known;
  const problems: string[] = [];
  const keys = new Map<string, SigningKey>();
  const entries = config.MESSAGE_SIGNING_KEYS.split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const [index, entry] of entries.entries()) {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon);
    const secret = Buffer.from(colon < 0 ? '' : entry.slice(colon + 1), 'base64');
    if (!KEY_ID.test(id))
      problems.push(`MESSAGE_SIGNING_KEYS entry ${index + 1} must be <key id>:<base64 secret>, the id 1 to 64 of A-Z a-z 0-9 . _ -`);
    else if (secret.length < MIN_SECRET_BYTES)
      problems.push(`MESSAGE_SIGNING_KEYS key "${id}" must decode to at least ${MIN_SECRET_BYTES} bytes`);
    else if (keys.has(id)) problems.push(`MESSAGE_SIGNING_KEYS names key "${id}" twice`);
    else keys.set(id, { id, secret });
  }
  const signWithId = config.MESSAGE_SIGNING_KEY_ID;
  if (signWithId && !keys.has(signWithId) && problems.length === 0) {
    problems.push(`MESSAGE_SIGNING_KEY_ID "${signWithId.slice(0, 64)}" is not a key id of MESSAGE_SIGNING_KEYS`);
  }
  const production = config.NODE_ENV === 'production';
  if (config.MESSAGE_SIGNING_DISABLED && entries.length > 0) {
    problems.push('MESSAGE_SIGNING_DISABLED=true contradicts MESSAGE_SIGNING_KEYS: remove one of them');
  }
  if (production && !config.MESSAGE_SIGNING_DISABLED) {
    if (entries.length === 0)
      problems.push(
        'MESSAGE_SIGNING_KEYS is required with NODE_ENV=production: without it anyone who can produce to a topic can forge or suppress events (MESSAGE_SIGNING_DISABLED=true runs without, on purpose)',
      );
    if (!signWithId)
      problems.push('MESSAGE_SIGNING_KEY_ID is required with NODE_ENV=production: the outbox relay would publish unsigned records');
  }
  if (problems.length > 0) throw new ConfigValidationError(problems);
  const warning =
    keys.size > 0
      ? undefined
      : config.MESSAGE_SIGNING_DISABLED
        ? 'envelope signing is DISABLED (MESSAGE_SIGNING_DISABLED=true): unsigned records are accepted, and anyone who can produce to a topic can forge or suppress an event'
        : 'envelope signing is off (no MESSAGE_SIGNING_KEYS): unsigned records are accepted, and anyone who can produce to a topic can forge or suppress an event; NODE_ENV=production refuses this';
  const signing = {
    warning,
    keys,
    signWith: signWithId ? keys.get(signWithId) : undefined,
    required: keys.size > 0 && config.MESSAGE_SIGNATURES_REQUIRED,
  };
  parsed.set(memo, signing);
  return signing;
}
