import { Headers } from './headers.js';
import type { MessageDeclaration } from './message-declaration.js';

/**
 * Why the record key, the `aggregate-id` header and the payload's aggregate id (the field the
 * declaration names in `aggregateIdField`) do not agree, or undefined when they do. The three say
 * the same thing three times: the key picks the partition (so per-aggregate order), the header
 * names the aggregate for tooling, the payload is what the handler acts on. A record where they
 * differ was not written by the outbox, which sets all three from one value: it is refused before
 * it can claim its message id. Declarations without `aggregateIdField` are not checked.
 */
export function aggregateIdentityProblem(
  key: string | null | undefined,
  headers: Record<string, string>,
  payload: unknown,
  declaration: MessageDeclaration,
): string | undefined {
  const field = declaration.aggregateIdField;
  if (!field) return undefined;
  const fromPayload = payload && typeof payload === 'object' ? (payload as Record<string, unknown>)[field] : undefined;
  const fromHeader = headers[Headers.aggregateId];
  if (typeof fromPayload !== 'string') return `payload.${field} is not a string aggregate id`;
  if (fromHeader !== fromPayload) return `header ${Headers.aggregateId} does not equal payload.${field}`;
  if (key !== fromPayload) return `record key does not equal payload.${field}`;
  return undefined;
}
