import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigValidationError } from '@libs/config';
import { checkEnvelope } from './envelope-check.js';
import { Headers } from './headers.js';
import type { MessageDeclaration } from './message-declaration.js';
import { signatureHeaders, signatureProblem, type SignedParts } from './message-signature.js';
import { messageSigning, messageVerification } from './message-signing.config.js';
import { newSigningKeyPair, signingKeyEnv, verifyKeyEntry } from './signing-key-pair.js';

const ThingOrdered: MessageDeclaration = {
  topic: 'test.thing.v1',
  type: 'ThingOrdered',
  schemaVersion: 1,
  producer: 'things',
  schema: z.strictObject({ thingId: z.string(), total: z.int() }),
  aggregateIdField: 'thingId',
};

function signed(overrides: Partial<SignedParts> = {}): SignedParts {
  const thingId = randomUUID();
  return {
    topic: 'test.thing.v1',
    key: thingId,
    headers: {
      [Headers.messageId]: randomUUID(),
      [Headers.messageType]: 'ThingOrdered',
      [Headers.schemaVersion]: '1',
      [Headers.aggregateId]: thingId,
    },
    payload: { thingId, total: 100 },
    ...overrides,
  };
}

/** Every variable of the signing schemas at its default: no keys, outside production. */
const UNSET = { MESSAGE_SIGNING_KEY: '', MESSAGE_SIGNING_DISABLED: false, NODE_ENV: '' };
const UNSET_VERIFY = { MESSAGE_VERIFY_KEYS: '', MESSAGE_SIGNATURES_REQUIRED: true, MESSAGE_SIGNING_DISABLED: false, NODE_ENV: '' };

const things1 = newSigningKeyPair('things-1');
const things2 = newSigningKeyPair('things-2');
const others1 = newSigningKeyPair('others-1');
const signerOf = (pair: typeof things1) => messageSigning({ ...UNSET, MESSAGE_SIGNING_KEY: signingKeyEnv(pair) }).signWith!;

/** Consumers hold the public keys of both producers; `things` is rotating from key 1 to key 2. */
const verification = messageVerification({
  ...UNSET_VERIFY,
  MESSAGE_VERIFY_KEYS: [verifyKeyEntry('things', things1), verifyKeyEntry('things', things2), verifyKeyEntry('others', others1)].join(','),
});

const withSignature = (parts: SignedParts, pair: typeof things1): SignedParts => ({
  ...parts,
  headers: { ...parts.headers, ...signatureHeaders(parts, signerOf(pair)) },
});

describe('message signatures', () => {
  it('when the producer signs and the consumer verifies with its public key, then it holds, whatever the payload key order', () => {
    const parts = withSignature(signed(), things2);
    const reordered = Object.fromEntries(Object.entries(parts.payload as object).reverse());
    expect(parts.headers[Headers.signatureKeyId]).toBe('things-2');
    expect(parts.headers[Headers.signature]).toMatch(/^ed25519=/);
    expect(signatureProblem({ ...parts, payload: reordered }, verification.keys, 'things')).toBeUndefined();
  });

  it.each([
    ['the payload', (parts: SignedParts) => ({ ...parts, payload: { ...(parts.payload as object), total: 1 } })],
    ['the key', (parts: SignedParts) => ({ ...parts, key: randomUUID() })],
    ['the topic', (parts: SignedParts) => ({ ...parts, topic: 'test.other.v1' })],
    ['the message id', (parts: SignedParts) => ({ ...parts, headers: { ...parts.headers, [Headers.messageId]: randomUUID() } })],
  ])('when %s changes after signing, then the signature does not match', (_what, change) => {
    const sent = withSignature(signed(), things1);
    expect(signatureProblem(change(sent), verification.keys, 'things')).toBe('signature does not match the envelope');
  });

  it('when a record is signed with a key that is not configured, with a forged key under a known id, or not signed, then it is refused with the reason', () => {
    const parts = signed();
    expect(signatureProblem(withSignature(parts, newSigningKeyPair('k9')), verification.keys, 'things')).toMatch(
      /k9.*not a configured key of things \(ThingOrdered is produced by things only\)/,
    );
    // Same id, another private key: a forger who knows the id (ids are not secret).
    expect(signatureProblem(withSignature(parts, newSigningKeyPair('things-1')), verification.keys, 'things')).toMatch(/does not match/);
    expect(signatureProblem(parts, verification.keys, 'things')).toMatch(/^unsigned/);
  });

  it("when a record is validly signed by another producer's key, then it is refused, naming the declared producer", () => {
    const byOthers = withSignature(signed(), others1);
    expect(signatureProblem(byOthers, verification.keys)).toBeUndefined();
    expect(signatureProblem(byOthers, verification.keys, 'things')).toBe(
      'signed with key "others-1" of others, but ThingOrdered is produced by things only',
    );
    const record = { topic: byOthers.topic, key: byOthers.key, value: byOthers.payload, headers: byOthers.headers };
    expect(checkEnvelope(record, [ThingOrdered], 'c', verification)).toMatchObject({
      valid: false,
      reason: 'SIGNATURE_INVALID',
      error: expect.stringContaining('produced by things only'),
    });
  });

  it('when verification is configured, then checkEnvelope refuses an unsigned record as SIGNATURE_INVALID, and accepts one signed by the producer', () => {
    const parts = signed();
    const record = { topic: parts.topic, key: parts.key, value: parts.payload, headers: parts.headers };
    expect(checkEnvelope(record, [ThingOrdered], 'c', verification)).toMatchObject({ valid: false, reason: 'SIGNATURE_INVALID' });
    expect(checkEnvelope(record, [ThingOrdered], 'c')).toMatchObject({ valid: true });
    const signedRecord = { ...record, headers: withSignature(parts, things1).headers };
    expect(checkEnvelope(signedRecord, [ThingOrdered], 'c', verification)).toMatchObject({ valid: true });
  });

  it('when signatures are not required (roll-out), then an unsigned record passes but a badly signed one is still refused', () => {
    const relaxed = { ...verification, required: false };
    const parts = signed();
    const record = { topic: parts.topic, key: parts.key, value: parts.payload, headers: parts.headers };
    expect(checkEnvelope(record, [ThingOrdered], 'c', relaxed)).toMatchObject({ valid: true });
    const forged = { ...record, headers: { ...parts.headers, [Headers.signature]: 'ed25519=AAAA', [Headers.signatureKeyId]: 'things-1' } };
    expect(checkEnvelope(forged, [ThingOrdered], 'c', relaxed)).toMatchObject({ valid: false, reason: 'SIGNATURE_INVALID' });
    const byOthers = { ...record, headers: withSignature(parts, others1).headers };
    expect(checkEnvelope(byOthers, [ThingOrdered], 'c', relaxed)).toMatchObject({ valid: false, reason: 'SIGNATURE_INVALID' });
  });
});

/** The problems `attempt` throws, one per entry of the ConfigValidationError. */
function problemsOf(attempt: () => unknown): string[] {
  try {
    attempt();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigValidationError);
    return [...(error as ConfigValidationError).problems];
  }
  throw new Error('expected a ConfigValidationError');
}

describe('messageSigning and messageVerification (configuration)', () => {
  it('when nothing is set, then nothing is signed or verified', () => {
    expect(messageSigning(UNSET)).toMatchObject({ signWith: undefined });
    expect(messageVerification(UNSET_VERIFY)).toMatchObject({ required: false });
    expect(messageVerification(UNSET_VERIFY).keys.size).toBe(0);
  });

  it('when the private key is malformed or not Ed25519, then the error names the variable and never the key', () => {
    const notEd25519 = Buffer.alloc(48, 3).toString('base64');
    expect(problemsOf(() => messageSigning({ ...UNSET, MESSAGE_SIGNING_KEY: 'nocolon' }))).toEqual([
      expect.stringContaining('MESSAGE_SIGNING_KEY must be <key id>:<base64 PKCS#8>'),
    ]);
    const problems = problemsOf(() => messageSigning({ ...UNSET, MESSAGE_SIGNING_KEY: `k1:${notEd25519}` }));
    expect(problems).toEqual([expect.stringContaining('MESSAGE_SIGNING_KEY "k1" is not a base64 PKCS#8 DER Ed25519 private key')]);
    expect(problems.join(' ')).not.toContain(notEd25519);
  });

  it('when verify keys are malformed, not public keys or doubled, then one error names each problem', () => {
    const entries = [
      'k1:AAAA',
      `things:bad id:${things1.publicKey}`,
      `things:k2:${Buffer.alloc(44, 1).toString('base64')}`,
      verifyKeyEntry('things', things1),
      verifyKeyEntry('others', things1),
    ].join(',');
    expect(problemsOf(() => messageVerification({ ...UNSET_VERIFY, MESSAGE_VERIFY_KEYS: entries }))).toEqual([
      expect.stringContaining('MESSAGE_VERIFY_KEYS entry 1 must be <producer>:<key id>:<base64 SPKI>'),
      expect.stringContaining('MESSAGE_VERIFY_KEYS entry 2 must be'),
      expect.stringContaining('MESSAGE_VERIFY_KEYS key "k2" is not a base64 SPKI DER Ed25519 public key'),
      expect.stringContaining('MESSAGE_VERIFY_KEYS names key "things-1" twice'),
    ]);
  });

  describe('in production (NODE_ENV=production)', () => {
    it('when a producer has no signing key, or a consumer no verify keys, then the start-up is refused, naming the variable and the opt-out', () => {
      expect(problemsOf(() => messageSigning({ ...UNSET, NODE_ENV: 'production' }))).toEqual([
        expect.stringMatching(/MESSAGE_SIGNING_KEY is required with NODE_ENV=production[\s\S]*MESSAGE_SIGNING_DISABLED=true/),
      ]);
      expect(problemsOf(() => messageVerification({ ...UNSET_VERIFY, NODE_ENV: 'production' }))).toEqual([
        expect.stringMatching(/MESSAGE_VERIFY_KEYS is required with NODE_ENV=production[\s\S]*MESSAGE_SIGNING_DISABLED=true/),
      ]);
    });

    it('when two public keys of a producer are set (a rotation), then it starts, accepts both, with no warning', () => {
      const rotating = messageVerification({
        ...UNSET_VERIFY,
        NODE_ENV: 'production',
        MESSAGE_VERIFY_KEYS: [verifyKeyEntry('things', things1), verifyKeyEntry('things', things2)].join(','),
      });
      expect([...rotating.keys.values()].map((key) => `${key.producer}/${key.id}`)).toEqual(['things/things-1', 'things/things-2']);
      expect(rotating).toMatchObject({ required: true, warning: undefined });
      expect(messageSigning({ ...UNSET, NODE_ENV: 'production', MESSAGE_SIGNING_KEY: signingKeyEnv(things2) })).toMatchObject({
        signWith: { id: 'things-2' },
        warning: undefined,
      });
    });

    it('when the opt-out is set, then it starts without keys and says so (a warning logged at every start)', () => {
      const optedOut = messageVerification({ ...UNSET_VERIFY, NODE_ENV: 'production', MESSAGE_SIGNING_DISABLED: true });
      expect(optedOut).toMatchObject({ required: false });
      expect(optedOut.warning).toMatch(/DISABLED \(MESSAGE_SIGNING_DISABLED=true\).*forge/);
      expect(messageSigning({ ...UNSET, NODE_ENV: 'production', MESSAGE_SIGNING_DISABLED: true }).warning).toMatch(/DISABLED/);
    });
  });

  it('when the opt-out is set beside keys, then the contradiction is an error', () => {
    expect(() => messageSigning({ ...UNSET, MESSAGE_SIGNING_DISABLED: true, MESSAGE_SIGNING_KEY: signingKeyEnv(things1) })).toThrow(
      /MESSAGE_SIGNING_DISABLED=true contradicts MESSAGE_SIGNING_KEY/,
    );
    expect(() =>
      messageVerification({ ...UNSET_VERIFY, MESSAGE_SIGNING_DISABLED: true, MESSAGE_VERIFY_KEYS: verifyKeyEntry('things', things1) }),
    ).toThrow(/MESSAGE_SIGNING_DISABLED=true contradicts MESSAGE_VERIFY_KEYS/);
  });

  it('when no keys are set outside production, then it starts with a warning that production refuses this', () => {
    expect(messageSigning(UNSET).warning).toMatch(/signing is off.*NODE_ENV=production refuses this/);
    expect(messageVerification(UNSET_VERIFY).warning).toMatch(/verification is off.*NODE_ENV=production refuses this/);
  });
});
