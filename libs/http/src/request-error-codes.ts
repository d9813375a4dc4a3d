/**
 * Codes of the errors any app's HTTP layer answers before or around a handler: stable
 * `DOMAIN.REASON` strings a client branches on (they cross process boundaries; classes do not).
 * Each app declares its own domain codes beside it (`orders.error-codes.ts`, ...).
 */
export const RequestErrorCodes = {
  /** A body field, path parameter or header is missing or invalid; `fields` names each. */
  VALIDATION_FAILED: 'REQUEST.VALIDATION_FAILED',
  /** The body is not JSON at all, so no field can be named. */
  MALFORMED_JSON: 'REQUEST.MALFORMED_JSON',
  /** The body holds a `__proto__` or `constructor` key (at any depth); `fields` names its path. */
  FORBIDDEN_KEY: 'REQUEST.FORBIDDEN_KEY',
  /** The body is larger than `HTTP_BODY_LIMIT_BYTES`. */
  BODY_TOO_LARGE: 'REQUEST.BODY_TOO_LARGE',
  /** The JSON body nests objects or arrays deeper than the limit (32 levels by default). */
  BODY_TOO_DEEP: 'REQUEST.BODY_TOO_DEEP',
  /** The body is not `application/json` (a form, text, ...); every API here takes JSON. */
  UNSUPPORTED_MEDIA_TYPE: 'REQUEST.UNSUPPORTED_MEDIA_TYPE',
  /** A path segment is longer than the router accepts (414); `fields` names `url`. */
  URI_TOO_LONG: 'REQUEST.URI_TOO_LONG',
  /** The request headers are larger than Node's limit (431), refused before any route. */
  HEADERS_TOO_LARGE: 'REQUEST.HEADERS_TOO_LARGE',
  /** The request was not sent whole within `HTTP_REQUEST_TIMEOUT_MS` (408). */
  TIMEOUT: 'REQUEST.TIMEOUT',
  /** No route matches the method and path. */
  ROUTE_NOT_FOUND: 'REQUEST.ROUTE_NOT_FOUND',
  /** Any other refusal of the HTTP layer (a 4xx raised by Nest or Fastify with no code of ours). */
  REFUSED: 'REQUEST.REFUSED',
  /** No database connection within its timeout (overload, or the database away): retry after `Retry-After`. */
  UNAVAILABLE: 'SERVER.UNAVAILABLE',
  /** The backlog behind the API is past its bounds (`LOAD_SHED_*`): nothing was done, retry after `Retry-After`. */
  OVERLOADED: 'SERVER.OVERLOADED',
  /** A fault of the server; the detail says nothing more on purpose, the log has the stack. */
  INTERNAL_ERROR: 'SERVER.INTERNAL_ERROR',
} as const;
