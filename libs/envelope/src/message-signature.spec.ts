import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigValidationError } from '@libs/config';
import { checkEnvelope } from './envelope-check.js';
import { Headers } from './headers.js';
import type { MessageDeclaration } from './message-declaration.js';
import { signatureHeaders, signatureProblem, type SignedParts } from './message-signature.js';
import { messageSigning } from './message-signing.config.js';

const secret = (fill?: number) => (fill === undefined ? randomBytes(32) : Buffer.alloc(32, fill)).toString('base64');
const ThingOrdered: MessageDeclaration = {
  topic: 'test.thing.v1',
  type: 'ThingOrdered',
  schemaVersion: 1,
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

/** Every variable of the signing schema at its default: no keys, outside production. */
const UNSET = {
  MESSAGE_SIGNING_KEYS: '',
  MESSAGE_SIGNING_KEY_ID: '',
  MESSAGE_SIGNATURES_REQUIRED: true,
  MESSAGE_SIGNING_DISABLED: false,
  NODE_ENV: '',
};

describe('message signatures', () => {
  const signing = messageSigning({
    ...UNSET,
    MESSAGE_SIGNING_KEYS: `k1:${secret(1)},k2:${secret(2)}`,
    MESSAGE_SIGNING_KEY_ID: 'k2',
    MESSAGE_SIGNATURES_REQUIRED: true,
  });

  it('when the relay signs and the consumer verifies with the same keys, then it holds, whatever the payload key order', () => {
    const parts = signed();
    const headers = { ...parts.headers, ...signatureHeaders(parts, signing.signWith!) };
    const reordered = Object.fromEntries(Object.entries(parts.payload as object).reverse());
    expect(headers[Headers.signatureKeyId]).toBe('k2');
    expect(signatureProblem({ ...parts, headers, payload: reordered }, signing.keys)).toBeUndefined();
  });

  it.each([
    ['the payload', (parts: SignedParts) => ({ ...parts, payload: { ...(parts.payload as object), total: 1 } })],
    ['the key', (parts: SignedParts) => ({ ...parts, key: randomUUID() })],
    ['the topic', (parts: SignedParts) => ({ ...parts, topic: 'test.other.v1' })],
    ['the message id', (parts: SignedParts) => ({ ...parts, headers: { ...parts.headers, [Headers.messageId]: randomUUID() } })],
  ])('when %s changes after signing, then the signature does not match', (_what, change) => {
    const parts = signed();
    const sent = { ...parts, headers: { ...parts.headers, ...signatureHeaders(parts, signing.signWith!) } };
    expect(signatureProblem(change(sent), signing.keys)).toBe('signature does not match the envelope');
  });

  it('when a record is signed with a key that is not configured, or not signed, then it is refused with the reason', () => {
    const parts = signed();
    const foreign = { id: 'k9', secret: Buffer.from(secret(9), 'base64') };
    expect(signatureProblem({ ...parts, headers: { ...parts.headers, ...signatureHeaders(parts, foreign) } }, signing.keys)).toMatch(
      /k9.*not configured/,
    );
    // Same id, another secret: a forger who guessed the id.
    const guessed = { id: 'k1', secret: Buffer.from(secret(7), 'base64') };
    expect(signatureProblem({ ...parts, headers: { ...parts.headers, ...signatureHeaders(parts, guessed) } }, signing.keys)).toMatch(
      /does not match/,
    );
    expect(signatureProblem(parts, signing.keys)).toMatch(/^unsigned/);
  });

  it('when verification is configured, then checkEnvelope refuses an unsigned record as SIGNATURE_INVALID, and accepts a signed one', () => {
    const parts = signed();
    const record = { topic: parts.topic, key: parts.key, value: parts.payload, headers: parts.headers };
    expect(checkEnvelope(record, [ThingOrdered], 'c', signing)).toMatchObject({ valid: false, reason: 'SIGNATURE_INVALID' });
    expect(checkEnvelope(record, [ThingOrdered], 'c')).toMatchObject({ valid: true });
    const withSignature = { ...record, headers: { ...parts.headers, ...signatureHeaders(parts, signing.signWith!) } };
    expect(checkEnvelope(withSignature, [ThingOrdered], 'c', signing)).toMatchObject({ valid: true });
  });

  it('when signatures are not required (roll-out), then an unsigned record passes but a badly signed one is still refused', () => {
    const relaxed = { ...signing, required: false };
    const parts = signed();
    const record = { topic: parts.topic, key: parts.key, value: parts.payload, headers: parts.headers };
    expect(checkEnvelope(record, [ThingOrdered], 'c', relaxed)).toMatchObject({ valid: true });
    const forged = { ...record, headers: { ...parts.headers, [Headers.signature]: 'v1=AAAA', [Headers.signatureKeyId]: 'k1' } };
    expect(checkEnvelope(forged, [ThingOrdered], 'c', relaxed)).toMatchObject({ valid: false, reason: 'SIGNATURE_INVALID' });
  });
});

describe('messageSigning (configuration)', () => {
  it('when nothing is set, then nothing is signed or verified', () => {
    expect(
      messageSigning({
        ...UNSET,
        MESSAGE_SIGNING_KEYS: '',
        MESSAGE_SIGNING_KEY_ID: '',
        MESSAGE_SIGNATURES_REQUIRED: true,
      }),
    ).toMatchObject({
      signWith: undefined,
      required: false,
    });
  });

  it('when keys are malformed, short, doubled or the signing id is unknown, then one error names each problem and no secret', () => {
    const short = Buffer.alloc(8, 1).toString('base64');
    const attempt = () =>
      messageSigning({
        ...UNSET,
        MESSAGE_SIGNING_KEYS: `nocolon,bad id:${secret()},k1:${short},k2:${secret(3)},k2:${secret(3)}`,
        MESSAGE_SIGNING_KEY_ID: 'k2',
        MESSAGE_SIGNATURES_REQUIRED: true,
      });
    expect(attempt).toThrow(ConfigValidationError);
    const problems = (() => {
      try {
        attempt();
        return [];
      } catch (error) {
        return (error as ConfigValidationError).problems;
      }
    })();
    expect(problems).toEqual([
      expect.stringContaining('entry 1 must be <key id>:<base64 secret>'),
      expect.stringContaining('entry 2 must be'),
      expect.stringContaining('key "k1" must decode to at least 32 bytes'),
      expect.stringContaining('names key "k2" twice'),
    ]);
    expect(problems.join(' ')).not.toContain(secret(3));
    expect(() =>
      messageSigning({
        ...UNSET,
        MESSAGE_SIGNING_KEYS: `k1:${secret(4)}`,
        MESSAGE_SIGNING_KEY_ID: 'k5',
        MESSAGE_SIGNATURES_REQUIRED: true,
      }),
    ).toThrow(/MESSAGE_SIGNING_KEY_ID "k5" is not a key id/);
  });

  describe('in production (NODE_ENV=production)', () => {
    const production = { ...UNSET, NODE_ENV: 'production' };

    it('when no keys are set, then the start-up is refused, naming both variables and the opt-out', () => {
      expect(() => messageSigning(production)).toThrow(ConfigValidationError);
      expect(() => messageSigning(production)).toThrow(
        /MESSAGE_SIGNING_KEYS is required with NODE_ENV=production[\s\S]*MESSAGE_SIGNING_DISABLED=true/,
      );
      expect(() => messageSigning(production)).toThrow(/MESSAGE_SIGNING_KEY_ID is required with NODE_ENV=production/);
    });

    it('when keys are set but no signing key id, then the start-up is refused: the relay would publish unsigned', () => {
      expect(() => messageSigning({ ...production, MESSAGE_SIGNING_KEYS: `k1:${secret(5)}` })).toThrow(
        /MESSAGE_SIGNING_KEY_ID is required/,
      );
    });

    it('when two keys are set (a rotation), then it starts, signs with the chosen one and accepts both, with no warning', () => {
      const rotating = messageSigning({
        ...production,
        MESSAGE_SIGNING_KEYS: `old:${secret(6)},new:${secret(7)}`,
        MESSAGE_SIGNING_KEY_ID: 'new',
      });
      expect([...rotating.keys.keys()]).toEqual(['old', 'new']);
      expect(rotating.signWith?.id).toBe('new');
      expect(rotating).toMatchObject({ required: true, warning: undefined });
    });

    it('when the opt-out is set, then it starts without keys and says so (a warning the inbox logs at every start)', () => {
      const optedOut = messageSigning({ ...production, MESSAGE_SIGNING_DISABLED: true });
      expect(optedOut).toMatchObject({ required: false, signWith: undefined });
      expect(optedOut.warning).toMatch(/DISABLED \(MESSAGE_SIGNING_DISABLED=true\).*forge/);
    });
  });

  it('when the opt-out is set beside keys, then the contradiction is an error', () => {
    expect(() => messageSigning({ ...UNSET, MESSAGE_SIGNING_DISABLED: true, MESSAGE_SIGNING_KEYS: `k1:${secret(8)}` })).toThrow(
      /MESSAGE_SIGNING_DISABLED=true contradicts MESSAGE_SIGNING_KEYS/,
    );
  });

  it('when no keys are set outside production, then it starts with a warning that production refuses this', () => {
    expect(messageSigning(UNSET).warning).toMatch(/signing is off.*NODE_ENV=production refuses this/);
  });
});
