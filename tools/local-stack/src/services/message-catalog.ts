import type { MessageDeclaration } from '@libs/envelope';
import { type ServiceDescriptor, services } from './service-catalog.js';

/** Which messages travel on which topic, by type: for tools that check or build raw records. */
export type MessageCatalog = Readonly<Record<string, Readonly<Record<string, MessageDeclaration>>>>;

/**
 * The messages of every topic, read from the produces declarations of `of` (default: every
 * service): the topic's producer says what travels on it. Throws when two services declare the
 * same topic (one writer per topic, or its per-key order is two writers' interleaving), or when a
 * service declares it sends a message whose contract names another producer (consumers would
 * refuse its signature).
 */
function messageCatalogOf(of: readonly ServiceDescriptor[] = services): MessageCatalog {
  const catalog: Record<string, Record<string, MessageDeclaration>> = {};
  for (const service of of) {
    for (const produced of service.produced) {
      if (catalog[produced.topic]) throw new Error(`${produced.topic} is declared produced by more than one service`);
      const foreign = produced.sends.find((message) => message.producer !== service.name);
      if (foreign)
        throw new Error(`${service.name} declares it sends ${foreign.type}, whose contract names ${foreign.producer} its producer`);
      catalog[produced.topic] = Object.fromEntries(produced.sends.map((message) => [message.type, message]));
    }
  }
  return catalog;
}

/** {@link messageCatalogOf} every service. */
export const messageCatalog: MessageCatalog = messageCatalogOf();
