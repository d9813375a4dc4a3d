import type { StandardSchemaV1 } from './standard-schema.js';

/**
 * A message type as its producer and consumers agree on it: the topic it travels on, its name (the
 * `message-type` header), its schema version (the `schema-version` header) and the schema of its
 * payload. Declared once, in the domain's contracts; the outbox publishes it on its topic after
 * validating the payload against its schema, and an inbox handler lists the declarations it accepts.
 */
export interface MessageDeclaration<Payload = unknown> {
  /** The one topic this message is published on: an event cannot be written to another by mistake. */
  readonly topic: string;
  readonly type: string;
  readonly schemaVersion: number;
  readonly schema: StandardSchemaV1<unknown, Payload>;
  /**
   * The service that produces it (its outbox publishes it). A consumer that verifies signatures
   * accepts it only when signed with a key of this producer: another service's key, even a valid
   * one, cannot speak for it.
   */
  readonly producer: string;
  /**
   * The payload field that holds the aggregate id. When set, the inbox refuses a record whose key
   * and `aggregate-id` header do not both equal it (see `aggregateIdentityProblem`). Default: unset,
   * nothing checked; a domain declaration should always set it, or a producer can route a message
   * about one aggregate with another's key.
   */
  readonly aggregateIdField?: string;
}
