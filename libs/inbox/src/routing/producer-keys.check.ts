import type { MessageVerification } from '@libs/envelope';
import type { AppConsumes } from './consumed-topic.declaration.js';

/**
 * What `MESSAGE_VERIFY_KEYS` lacks for `consumes`: one problem per producer of an accepted message
 * type that has no public key there. Without one, every record of that producer would be
 * dead-lettered as `SIGNATURE_INVALID`, so the start-up is refused instead, naming the variable.
 * Nothing is checked while no key is configured (verification off, which production refuses).
 */
export function missingProducerKeys(verification: Pick<MessageVerification, 'keys'>, consumes: AppConsumes): string[] {
  if (verification.keys.size === 0) return [];
  const producers = new Set([...verification.keys.values()].map((key) => key.producer));
  const typesByProducer = new Map<string, string[]>();
  for (const message of consumes.flatMap((consumed) => consumed.accepts)) {
    if (producers.has(message.producer)) continue;
    typesByProducer.set(message.producer, [...(typesByProducer.get(message.producer) ?? []), message.type]);
  }
  return [...typesByProducer].map(
    ([producer, types]) =>
      `MESSAGE_VERIFY_KEYS holds no key of ${producer}, which produces ${types.join(', ')} that this service consumes: every such record would be dead-lettered`,
  );
}
