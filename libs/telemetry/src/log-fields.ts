import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Identifiers that belong on every log line of the unit of work being done (one HTTP request, one
 * handled message). Only those that exist are set.
 */
export interface LogFields {
  messageId?: string;
  messageType?: string;
  orderId?: string;
  correlationId?: string;
  [name: string]: string | number | boolean | undefined;
}

const scope = new AsyncLocalStorage<LogFields>();

/** Runs `fn` with `fields` as the log fields of this unit of work; {@link annotateLog} adds to them. */
export function runWithLogFields<T>(fields: LogFields, fn: () => T): T {
  return scope.run(fields, fn);
}

/**
 * Adds identifiers the library code cannot know (an order id, from the domain) to the current
 * request's or message's log line. Outside such a scope it does nothing.
 */
export function annotateLog(fields: LogFields): void {
  const store = scope.getStore();
  if (store) Object.assign(store, fields);
}

/** The fields of the current unit of work, or undefined outside one. */
export function currentLogFields(): LogFields | undefined {
  return scope.getStore();
}
