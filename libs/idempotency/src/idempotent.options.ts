import type { FailpointName } from '@libs/failpoints';

export const IDEMPOTENT_OPTIONS = Symbol('IDEMPOTENT_OPTIONS');

export interface IdempotentOptions {
  /** Reject requests without an `Idempotency-Key` header with 400. Default false. */
  required?: boolean;
  /** Status of a successful response, stored and replayed with the body. */
  status: number;
  /**
   * A failpoint between the commit and the response: the window a client retry must cover. Its
   * context is `<scope> executed` or `<scope> replayed`, the scope from {@link failpointScope}.
   * Default none.
   */
  afterCommitFailpoint?: FailpointName;
  /**
   * What scopes {@link afterCommitFailpoint} (`name@<scope>`): a value the server stored in the
   * response (an order id), so a test can arm the failpoint for one resource. Never the
   * client's `Idempotency-Key`: a client must not choose which request reaches an armed line.
   * Default none: only an unscoped failpoint fires.
   */
  failpointScope?: (response: never) => string;
}
