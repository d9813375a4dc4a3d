/**
 * A Kafka header value as text. Nest hands headers over decoded to strings, JSON-parsed when they
 * look like JSON; a Buffer arrives when a value is not text. Undefined when the header is absent.
 */
export function headerText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString() : JSON.stringify(value);
}
