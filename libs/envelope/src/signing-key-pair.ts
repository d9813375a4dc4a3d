import { generateKeyPairSync } from 'node:crypto';

/** A new Ed25519 key pair in the forms the signing variables take. */
export interface SigningKeyPair {
  readonly id: string;
  /** Base64 PKCS#8 DER: the producer's `MESSAGE_SIGNING_KEY` is `<id>:<privateKey>` (secret). */
  readonly privateKey: string;
  /** Base64 SPKI DER: a consumer's `MESSAGE_VERIFY_KEYS` entry is `<producer>:<id>:<publicKey>`. */
  readonly publicKey: string;
}

/** Makes an Ed25519 key pair with id `id`, as `openssl genpkey -algorithm ed25519` would. */
export function newSigningKeyPair(id: string): SigningKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    id,
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
  };
}

/** `MESSAGE_SIGNING_KEY` for `pair`. */
export function signingKeyEnv(pair: SigningKeyPair): string {
  return `${pair.id}:${pair.privateKey}`;
}

/** One `MESSAGE_VERIFY_KEYS` entry: `pair`'s public half, as `producer`'s. */
export function verifyKeyEntry(producer: string, pair: SigningKeyPair): string {
  return `${producer}:${pair.id}:${pair.publicKey}`;
}
