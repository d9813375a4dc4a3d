/** A command as the caller writes it: what to send, and the key that makes sending it twice harmless. */
export interface OutgoingCommand {
  /**
   * The business operation id (e.g. `loyalty-accrual:<orderId>`): the primary key, and the
   * `Idempotency-Key` of every attempt. The same operation must always yield the same id.
   */
  id: string;
  /** Path of the `POST`, resolved against the module's `baseUrl`, e.g. `/accruals`. */
  path: string;
  /** The JSON body, stored as `jsonb` and sent unchanged on every attempt. */
  body: unknown;
}
