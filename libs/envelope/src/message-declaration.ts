import type { StandardSchemaV1 } from './standard-schema.js';

/**
 * A message type as its producer and consumers agree on it: its name (the `message-type` header),
 * its schema version (the `schema-version` header) and the schema of its payload. Declared once,
 * in the domain's contracts; the outbox validates a payload against it before the insert, and an
 * inbox handler lists the declarations it accepts.
 */
export interface MessageDeclaration<Payload = unknown> {
  readonly type: string;
  readonly schemaVersion: number;
  readonly schema: StandardSchemaV1<unknown, Payload>;
}
