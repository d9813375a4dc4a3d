import { Inject, Injectable } from '@nestjs/common';
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { AuthConfig } from './auth.config.js';
import { type Principal, principalOf } from './principal.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

/** Injection token of the validated auth configuration. */
export const AUTH_CONFIG = Symbol('AUTH_CONFIG');

/** Asymmetric algorithms only: `none` and HMAC (a shared secret the API would have to hold) are refused. */
const ALGORITHMS = ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'];

/**
 * How long a fetched key set is trusted before the next verification fetches it again, even when no
 * token names an unknown key. Together with {@link VERIFIED_TOKEN_MAX_AGE_MS} it bounds how long a
 * key the provider withdrew (a compromised one) is still honoured: 30 s + 30 s, a minute at most.
 * jose's default is 10 minutes. Lower costs one JWKS request per app per interval, nothing more.
 */
export const JWKS_CACHE_MAX_AGE_MS = 30_000;

/** How long a token verified once is answered from memory (see {@link VerifiedTokenCache}). */
export const VERIFIED_TOKEN_MAX_AGE_MS = 30_000;

/**
 * The JOSE header `typ` of an access token (RFC 9068 §2.1). Required, so that an ID token or any
 * other JWT the provider signs for this audience (a logout token, a client assertion) is not taken
 * for an access token.
 */
const ACCESS_TOKEN_TYPE = 'at+jwt';

/** Why a token was refused; its message is safe to answer (it names no key material). */
export class TokenRejectedError extends Error {}

/**
 * Verifies bearer JWTs against the provider's JWKS (`AUTH_JWKS_URL`), with `jose`: signature,
 * `typ: at+jwt`, `iss`, `aud` (this API's own: a token for another API of the system is refused
 * here), `exp`/`nbf` (with `AUTH_CLOCK_TOLERANCE_S`), and a `sub`. The key set is fetched on first
 * use and cached by `createRemoteJWKSet` for {@link JWKS_CACHE_MAX_AGE_MS}; a token signed by a key
 * not in the cache triggers one refetch (at most every 30 s), which is how the provider's key
 * rotation reaches us. A token verified once is answered from {@link VerifiedTokenCache} until it
 * expires, for {@link VERIFIED_TOKEN_MAX_AGE_MS} at most.
 */
@Injectable()
export class TokenVerifier {
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;
  private readonly verified = new VerifiedTokenCache(1000, VERIFIED_TOKEN_MAX_AGE_MS);

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {
    this.keys = createRemoteJWKSet(new URL(config.AUTH_JWKS_URL), {
      timeoutDuration: 5000,
      cooldownDuration: 30_000,
      cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
    });
  }

  /** The principal of `token`, or a {@link TokenRejectedError} saying why not. */
  async verify(token: string): Promise<Principal> {
    const known = this.verified.get(token);
    if (known !== undefined) return known;
    try {
      const { payload } = await jwtVerify(token, this.keys, {
        issuer: this.config.AUTH_ISSUER,
        audience: this.config.AUTH_AUDIENCE,
        typ: ACCESS_TOKEN_TYPE,
        algorithms: ALGORITHMS,
        clockTolerance: this.config.AUTH_CLOCK_TOLERANCE_S,
        requiredClaims: ['sub', 'exp'],
      });
      // jose checks that `sub` is there, not what it is: an array or an empty string would otherwise
      // become a customer id in every app that takes the subject as one.
      if (typeof payload.sub !== 'string' || payload.sub.trim() === '')
        throw new TokenRejectedError("the token's sub is not a non-empty string");
      const principal = principalOf({ ...payload, sub: payload.sub });
      // requiredClaims makes `exp` present.
      this.verified.remember(token, principal, payload.exp! * 1000);
      return principal;
    } catch (error) {
      if (error instanceof errors.JOSEError) throw new TokenRejectedError(describe(error));
      throw error;
    }
  }
}

function describe(error: InstanceType<typeof errors.JOSEError>): string {
  if (error instanceof errors.JWTExpired) return 'the bearer token has expired';
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'typ') {
    return `the bearer token is not an access token (its "typ" header must be ${ACCESS_TOKEN_TYPE})`;
  }
  if (error instanceof errors.JWTClaimValidationFailed) return `the bearer token's "${error.claim}" claim is not accepted`;
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return 'the bearer token is not signed by a key of the trusted issuer';
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return 'the token issuer keys are unavailable';
  return 'the bearer token is malformed or not accepted';
}
