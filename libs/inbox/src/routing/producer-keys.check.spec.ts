import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { loadConfig } from '@libs/config';
import { messageVerification, messageVerificationEnv, newSigningKeyPair, verifyKeyEntry } from '@libs/envelope';
import type { AppConsumes } from './consumed-topic.declaration.js';
import { missingProducerKeys } from './producer-keys.check.js';

const declaration = (type: string, producer: string) => ({
  topic: 'test.thing.v1',
  type,
  producer,
  schemaVersion: 1,
  schema: z.looseObject({}),
});
const consumes = [
  { accepts: [declaration('ThingOrdered', 'things'), declaration('ThingCancelled', 'things'), declaration('OtherDone', 'others')] },
] as unknown as AppConsumes;
const verification = (...producers: string[]) =>
  messageVerification({
    ...loadConfig(messageVerificationEnv, {}),
    MESSAGE_VERIFY_KEYS: producers.map((producer) => verifyKeyEntry(producer, newSigningKeyPair(`${producer}-1`))).join(','),
  });

describe('missingProducerKeys', () => {
  it('when a producer of a consumed type has no public key, then one problem names it, its types and the variable', () => {
    expect(missingProducerKeys(verification('others'), consumes)).toEqual([
      'MESSAGE_VERIFY_KEYS holds no key of things, which produces ThingOrdered, ThingCancelled that this service consumes: every such record would be dead-lettered',
    ]);
  });

  it('when every producer has a key, or no key is configured (verification off), then there is nothing to report', () => {
    expect(missingProducerKeys(verification('things', 'others'), consumes)).toEqual([]);
    expect(missingProducerKeys(verification(), consumes)).toEqual([]);
  });
});
