/** A stable error code, `DOMAIN.REASON` (`INVENTORY.INSUFFICIENT_STOCK`): it crosses process boundaries. */
export type ErrorCode = `${string}.${string}`;

/**
 * An error that carries its stable code in a typed field, never inside its message text: a caller
 * branches on `code` (a union of its owner's codes, so a typo does not compile), and the message is
 * free prose for a human. Codes cross process boundaries, classes do not, so `name` is the code too:
 * a log line, a stack trace and a dead letter's `dlq-error` header (`<name>: <message>`) all start
 * with it, e.g. `ORDERS.NOT_FOUND: order 0b9f... of StockReserved ...`.
 *
 * Subclass it where an error carries more than a message (`OutboxEventRejectedError` keeps its
 * problems), or throw it as is: `throw new CodedError(OrdersErrorCodes.NOT_FOUND, 'order ...')`.
 */
export class CodedError<Code extends ErrorCode = ErrorCode> extends Error {
  constructor(
    /** The stable `DOMAIN.REASON` code; never renamed or reused. */
    readonly code: Code,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = code;
  }
}
