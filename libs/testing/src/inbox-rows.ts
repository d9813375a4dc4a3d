import { queryTestDatabase } from './row-counts.js';
import { waitFor } from './wait-for.js';

/** Options of {@link waitForInboxMessage}. */
export interface WaitForInboxMessageOptions {
  /** Only a row of this consumer (`inbox_messages.consumer`) counts; default any consumer. */
  consumer?: string;
  /** Default 30 s. */
  timeoutMs?: number;
  /** Names the wait in the timeout error; default `message <id> in the inbox of <database>`. */
  description?: string;
}

/**
 * Waits until the inbox of `database` holds `messageId`. The inbox row commits in the handler's
 * transaction, so once it is there, everything the handler wrote is visible too.
 */
export async function waitForInboxMessage(
  serverUrl: string,
  database: string,
  messageId: string,
  options: WaitForInboxMessageOptions = {},
): Promise<void> {
  const byConsumer = options.consumer === undefined ? '' : ' AND consumer = $2';
  const params = options.consumer === undefined ? [messageId] : [messageId, options.consumer];
  await waitFor(
    async () => (await queryTestDatabase(serverUrl, database, `SELECT 1 FROM inbox_messages WHERE message_id = $1${byConsumer}`, params)).length > 0,
    { timeoutMs: options.timeoutMs ?? 30_000, description: options.description ?? `message ${messageId} in the inbox of ${database}` },
  );
}
