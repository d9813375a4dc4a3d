import type { ClientCredentialsConfig } from './client-credentials.config.js';

/** Renew this long before the token expires, so a call never leaves with a token about to lapse. */
const RENEW_BEFORE_EXPIRY_MS = 30_000;
const TOKEN_REQUEST_TIMEOUT_MS = 10_000;

/**
 * A service's own access token from the OAuth 2.0 client-credentials grant: fetched on first use,
 * cached until shortly before it expires, fetched once for any number of concurrent callers, and
 * dropped by {@link invalidate} when a partner answers 401 (revoked, or keys rotated). The secret
 * goes in HTTP Basic (RFC 6749 §2.3.1), never in a URL or a log line.
 */
export class ClientCredentialsTokenSource {
  private cached: { token: string; renewAt: number } | undefined;
  private inFlight: Promise<string> | undefined;

  constructor(private readonly config: ClientCredentialsConfig) {}

  /** A valid access token; rejects with the provider's error when it refuses the client. */
  async token(): Promise<string> {
    if (this.cached && Date.now() < this.cached.renewAt) return this.cached.token;
    this.inFlight ??= this.fetchToken().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** Forgets the cached token: the next {@link token} fetches a new one. */
  invalidate(): void {
    this.cached = undefined;
  }

  private async fetchToken(): Promise<string> {
    const basic = Buffer.from(`${encodeURIComponent(this.config.AUTH_CLIENT_ID)}:${encodeURIComponent(this.config.AUTH_CLIENT_SECRET)}`);
    const response = await fetch(this.config.AUTH_CLIENT_TOKEN_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic.toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: this.config.AUTH_CLIENT_SCOPE }).toString(),
      signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`token endpoint answered ${response.status}: ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string') throw new Error('token endpoint answered without an access_token');
    const lifetimeMs = typeof body.expires_in === 'number' ? body.expires_in * 1000 : 60_000;
    this.cached = { token: body.access_token, renewAt: Date.now() + Math.max(lifetimeMs - RENEW_BEFORE_EXPIRY_MS, lifetimeMs / 2) };
    return body.access_token;
  }
}
