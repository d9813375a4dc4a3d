import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { JWKS_CACHE_MAX_AGE_MS, TokenRejectedError, TokenVerifier, VERIFIED_TOKEN_MAX_AGE_MS } from './token-verifier.js';

const ISSUER = 'urn:test:issuer';
const AUDIENCE = 'urn:test:loyalty-api';

/**
 * What the verifier takes for an access token of this API, against a JWKS served
 * over real HTTP whose keys the test withdraws. The clock is moved with `Date.now` (what jose's key
 * set cache and the verified-token cache read), never slept.
 */
describe('TokenVerifier (a JWKS over HTTP)', () => {
  let server: Server;
  let published: JWK[] = [];
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  let verifier: TokenVerifier;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    published = [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }];
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: published }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    verifier = new TokenVerifier({
      AUTH_ISSUER: ISSUER,
      AUTH_AUDIENCE: AUDIENCE,
      AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks`,
      AUTH_CLOCK_TOLERANCE_S: 5,
    });
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const sign = (options: { sub?: unknown; typ?: string | null; audience?: string } = {}) => {
    const header = { alg: 'ES256', kid: 'k1', ...(options.typ === null ? {} : { typ: options.typ ?? 'at+jwt' }) };
    // A `sub` that is not a string goes in as a raw claim: setSubject would refuse to write it.
    return new SignJWT({ sub: (options.sub ?? 'c1') as string })
      .setProtectedHeader(header)
      .setIssuer(ISSUER)
      .setAudience(options.audience ?? AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(privateKey);
  };
  const refusal = (token: string) =>
    verifier.verify(token).then(
      () => 'accepted',
      (error: unknown) => (error instanceof TokenRejectedError ? error.message : `threw ${String(error)}`),
    );

  it('when an access token (typ at+jwt) is for this API, then its principal is answered', async () => {
    await expect(verifier.verify(await sign({ sub: 'c-ok' }))).resolves.toMatchObject({ subject: 'c-ok' });
  });

  it("when the token's sub is an array, empty or blank, then it is refused naming sub (every app, loyalty included)", async () => {
    for (const sub of [['c1', 'c2'], '', '   ', 42]) {
      expect(await refusal(await sign({ sub }))).toBe("the token's sub is not a non-empty string");
    }
  });

  it('when the token has no typ, or typ JWT (an ID token), then it is refused as not an access token', async () => {
    expect(await refusal(await sign({ typ: null }))).toContain('at+jwt');
    expect(await refusal(await sign({ typ: 'JWT' }))).toContain('at+jwt');
    expect(await refusal(await sign({ typ: 'application/at+jwt' }))).toBe('accepted');
  });

  it('when the token is for another API of the system (another audience), then it is refused naming aud', async () => {
    expect(await refusal(await sign({ audience: 'urn:test:orders-api' }))).toContain('"aud"');
  });

  it('when the issuer withdraws a key, then within a minute no token of it is honoured, a verified one included', async () => {
    expect(JWKS_CACHE_MAX_AGE_MS + VERIFIED_TOKEN_MAX_AGE_MS).toBeLessThanOrEqual(60_000);
    const start = Date.now();
    const remembered = await sign({ sub: 'c-remembered' });
    await expect(verifier.verify(remembered)).resolves.toMatchObject({ subject: 'c-remembered' });
    const withdrawn = published;
    published = [];
    try {
      jest.spyOn(Date, 'now').mockReturnValue(start + JWKS_CACHE_MAX_AGE_MS + 1);
      expect(await refusal(await sign({ sub: 'c-new' }))).toBe('the bearer token is not signed by a key of the trusted issuer');
      jest.spyOn(Date, 'now').mockReturnValue(start + 60_000 + 1);
      expect(await refusal(remembered)).toBe('the bearer token is not signed by a key of the trusted issuer');
    } finally {
      published = withdrawn;
    }
  });
});
