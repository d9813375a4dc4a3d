/** Codes of the authentication and authorization refusals (stable: clients branch on them). */
export const AuthErrorCodes = {
  /** 401: no bearer token, or one that is malformed, badly signed, expired, or for another issuer or audience. */
  UNAUTHENTICATED: 'AUTH.UNAUTHENTICATED',
  /** 403: a valid token without a scope the operation requires. */
  FORBIDDEN: 'AUTH.FORBIDDEN',
} as const;
