import type { FailpointName } from '@app/failpoints';

export const IDEMPOTENT_OPTIONS = Symbol('IDEMPOTENT_OPTIONS');

export interface IdempotentOptions {
  /** Reject requests without an `Idempotency-Key` header with 400. Default false. */
  required?: boolean;
  /** Status of a successful response, stored and replayed with the body. */
  status: number;
  /**
   * A failpoint between the commit and the response: the window a client retry must cover. Its
   * context is `<key> executed` or `<key> replayed`. Default none.
   */
  afterCommitFailpoint?: FailpointName;
}
