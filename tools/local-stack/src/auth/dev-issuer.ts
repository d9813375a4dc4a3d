import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { DEV_ISSUER_NAME } from '@libs/auth';
import { LOYALTY_ACCRUALS_WRITE_SCOPE } from '@libs/contracts';
import type { ServiceName } from '../services/service-catalog.js';

/**
 * What the development issuer puts in every token's `iss` and `aud`, and what the local stack and
 * the tests tell the apps to expect (`AUTH_ISSUER`, `AUTH_AUDIENCE`). Each API has an audience of
 * its own, as it would be registered at a real provider: a token minted for one API (inventory's
 * service token for loyalty, a customer's for orders) is refused by the others. A real deployment
 * uses its OIDC provider's issuer URL and the audiences registered there.
 */
export const DevIssuerClaims = {
  issuer: DEV_ISSUER_NAME,
  audiences: {
    orders: 'urn:nest-outbox-reference:orders-api',
    inventory: 'urn:nest-outbox-reference:inventory-api',
    loyalty: 'urn:nest-outbox-reference:loyalty-api',
  } satisfies Record<ServiceName, string>,
} as const;

/**
 * The one client the issuer knows for the client-credentials grant: inventory calling loyalty. Its
 * tokens carry loyalty's audience only, whatever it asks for.
 */
export const DevServiceClient = {
  id: 'inventory',
  scopes: [LOYALTY_ACCRUALS_WRITE_SCOPE],
  api: 'loyalty',
} as const;

/** What the issuer keeps: its signing key (private JWK, with `kid` and `alg`) and the service client's secret. */
interface DevIssuerState {
  privateJwk: JWK;
  clientSecret: string;
}

/** What {@link DevIssuer.sign} puts in a token. */
export interface DevTokenClaims {
  /** The subject: a customer id, an operator's name, or a client id for a service. */
  sub: string;
  /** OAuth scopes, written space-separated in the `scope` claim; none by default. */
  scopes?: readonly string[];
  /** Set for a client-credentials token (RFC 9068: `client_id`, equal to `sub`). */
  clientId?: string;
  /** Lifetime; default 3600 s. Negative gives an already expired token (for tests). */
  expiresInSeconds?: number;
  /** The API the token is for: its `aud` is that API's audience ({@link DevIssuerClaims}). */
  api: ServiceName;
  /** Overrides of `iss` and `aud`, for tests of a token from the wrong issuer or for an API not of this system. */
  issuer?: string;
  audience?: string;
  /** Override of the JOSE header `typ` (default `at+jwt`, RFC 9068), for tests of a token that is not an access token. */
  typ?: string;
}

const SIGNING_ALG = 'ES256';
const JWKS_PATH = '/.well-known/jwks.json';
const TOKEN_PATH = '/oauth/token';
/** Lifetime of a client-credentials token: short, as a real provider's; the client fetches a new one. */
const SERVICE_TOKEN_SECONDS = 300;

/**
 * A development OAuth 2.0 / OIDC issuer for this machine: an ES256 key pair, its JWKS at
 * `/.well-known/jwks.json` and a client-credentials token endpoint at `/oauth/token`, so the apps
 * verify tokens exactly as they would against a real provider (nothing in the apps knows it is a
 * development issuer). Never for production: anyone with the state file can mint any token, so
 * every way to get one (and so `npm start`, `npm run token` and the compose `dev-issuer`) throws
 * under `NODE_ENV=production`.
 */
export class DevIssuer {
  private server: Server | undefined;
  private baseUrl: string | undefined;

  private constructor(private readonly state: DevIssuerState) {
    if (process.env.NODE_ENV === 'production') {
      throw new Error(
        'the development token issuer refuses to run with NODE_ENV=production: anyone who can read its key file can mint any token; production takes tokens from its OIDC provider (docs/auth.md)',
      );
    }
  }

  /** A fresh key pair and client secret, in memory (the tests' issuer: a new one every run). */
  static async create(): Promise<DevIssuer> {
    const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const privateJwk = { ...(await exportJWK(privateKey)), alg: SIGNING_ALG, kid: randomBytes(8).toString('hex') };
    return new DevIssuer({ privateJwk, clientSecret: randomBytes(24).toString('base64url') });
  }

  /**
   * The issuer kept in `file` (created with mode 0600 on first use), so tokens printed by
   * `npm run token` stay valid across restarts of `npm start`. `file` belongs in a git-ignored
   * directory (`.local/`).
   */
  static async loadOrCreate(file: string): Promise<DevIssuer> {
    if (existsSync(file)) return DevIssuer.fromSerialized(readFileSync(file, 'utf8'));
    const issuer = await DevIssuer.create();
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, issuer.serialize(), { mode: 0o600 });
    return issuer;
  }

  /** The issuer {@link serialize} wrote (the tests pass it from the global setup to the test files). */
  static fromSerialized(text: string): DevIssuer {
    const state = JSON.parse(text) as DevIssuerState;
    if (!state.privateJwk?.d || !state.clientSecret) throw new Error('not a development issuer state (no private key or client secret)');
    return new DevIssuer(state);
  }

  /** The private state as JSON: a secret. */
  serialize(): string {
    return JSON.stringify(this.state);
  }

  /** The secret of {@link DevServiceClient}. */
  get clientSecret(): string {
    return this.state.clientSecret;
  }

  /** The public half of the signing key, as published in the JWKS. */
  get publicJwk(): JWK {
    const { d: _private, ...publicJwk } = this.state.privateJwk;
    return publicJwk;
  }

  /** A signed JWT access token with `claims` (`iat`, `exp`, `iss`, `aud`, `sub`, `scope`, `client_id`). */
  async sign(claims: DevTokenClaims): Promise<string> {
    const key = await importJWK(this.state.privateJwk, SIGNING_ALG);
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = {};
    if (claims.scopes && claims.scopes.length > 0) payload.scope = claims.scopes.join(' ');
    if (claims.clientId) payload.client_id = claims.clientId;
    // As a raw claim, not setSubject (which insists on a string): a test may mint a malformed `sub`.
    payload.sub = claims.sub;
    return new SignJWT(payload)
      .setProtectedHeader({ alg: SIGNING_ALG, kid: this.state.privateJwk.kid, typ: claims.typ ?? 'at+jwt' })
      .setIssuer(claims.issuer ?? DevIssuerClaims.issuer)
      .setAudience(claims.audience ?? DevIssuerClaims.audiences[claims.api])
      .setIssuedAt(now)
      .setExpirationTime(now + (claims.expiresInSeconds ?? 3600))
      .sign(key);
  }

  /**
   * Serves the JWKS and the token endpoint on `host:port` (0 = a free port); resolves with the base
   * URL. The server does not keep the process alive by itself (`unref`): its owner's lifetime decides.
   */
  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    const server = createServer((request, response) => void this.answer(request, response));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    server.unref();
    const address = server.address();
    if (!address || typeof address !== 'object') throw new Error('the development issuer has no address');
    this.baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;
    return this.baseUrl;
  }

  /** Stops serving; safe to call when it never listened. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Where {@link listen} serves the JWKS; throws before it listens. */
  get jwksUrl(): string {
    return `${this.listeningUrl()}${JWKS_PATH}`;
  }

  /**
   * The variables `service` needs to trust this issuer (`AUTH_ISSUER`, `AUTH_JWKS_URL` and its own
   * `AUTH_AUDIENCE`) and, for the service client's app (inventory), those it needs to fetch its
   * service token (`AUTH_CLIENT_*`). `baseUrl` defaults to where {@link listen} serves; compose
   * passes the container's address.
   */
  appEnv(service: ServiceName, baseUrl: string = this.listeningUrl()): Record<string, string> {
    const trust = {
      AUTH_ISSUER: DevIssuerClaims.issuer,
      AUTH_AUDIENCE: DevIssuerClaims.audiences[service],
      AUTH_JWKS_URL: `${baseUrl}${JWKS_PATH}`,
    };
    if (service !== DevServiceClient.id) return trust;
    return {
      ...trust,
      AUTH_CLIENT_TOKEN_URL: `${baseUrl}${TOKEN_PATH}`,
      AUTH_CLIENT_ID: DevServiceClient.id,
      AUTH_CLIENT_SECRET: this.state.clientSecret,
      AUTH_CLIENT_SCOPE: DevServiceClient.scopes.join(' '),
    };
  }

  /** {@link appEnv} of each of the three services. */
  appEnvs(baseUrl: string = this.listeningUrl()): Record<ServiceName, Record<string, string>> {
    return {
      orders: this.appEnv('orders', baseUrl),
      inventory: this.appEnv('inventory', baseUrl),
      loyalty: this.appEnv('loyalty', baseUrl),
    };
  }

  private listeningUrl(): string {
    if (!this.baseUrl) throw new Error('the development issuer is not listening: call listen() first or pass its URL');
    return this.baseUrl;
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://issuer').pathname;
    try {
      if (request.method === 'GET' && path === JWKS_PATH) return reply(response, 200, { keys: [this.publicJwk] });
      if (request.method === 'POST' && path === TOKEN_PATH) return await this.clientCredentials(request, response);
      reply(response, 404, { error: 'not_found' });
    } catch (error) {
      reply(response, 500, { error: 'server_error', error_description: (error as Error).message });
    }
  }

  /** RFC 6749 §4.4: `grant_type=client_credentials`, the client authenticated by HTTP Basic or form fields. */
  private async clientCredentials(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readBody(request));
    const [basicId, basicSecret] = basicCredentials(request.headers.authorization);
    const clientId = basicId ?? form.get('client_id') ?? '';
    const secret = basicSecret ?? form.get('client_secret') ?? '';
    if (form.get('grant_type') !== 'client_credentials') return reply(response, 400, { error: 'unsupported_grant_type' });
    if (clientId !== DevServiceClient.id || !sameSecret(secret, this.state.clientSecret))
      return reply(response, 401, { error: 'invalid_client' });
    const requested = (form.get('scope') ?? '').split(' ').filter(Boolean);
    const allowed: readonly string[] = DevServiceClient.scopes;
    if (requested.some((scope) => !allowed.includes(scope))) return reply(response, 400, { error: 'invalid_scope' });
    const scopes = requested.length > 0 ? requested : allowed;
    const token = await this.sign({ sub: clientId, clientId, scopes, api: DevServiceClient.api, expiresInSeconds: SERVICE_TOKEN_SECONDS });
    reply(response, 200, { access_token: token, token_type: 'Bearer', expires_in: SERVICE_TOKEN_SECONDS, scope: scopes.join(' ') });
  }
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 16_384) throw new Error('token request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function basicCredentials(header: string | undefined): [string | undefined, string | undefined] {
  if (!header?.startsWith('Basic ')) return [undefined, undefined];
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return [undefined, undefined];
  return [decodeURIComponent(decoded.slice(0, colon)), decodeURIComponent(decoded.slice(colon + 1))];
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
