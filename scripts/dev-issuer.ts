// The development token issuer as a process of its own, for docker compose (`dev-issuer`, the same
// tool `npm start` runs in-process): the key pair of DEV_ISSUER_FILE (created on first use), its
// JWKS and a client-credentials endpoint on DEV_ISSUER_HOST:DEV_ISSUER_PORT. DEV_ISSUER_CLIENT_SECRET
// fixes the service client's secret so compose can hand the same one to inventory. Never for
// production: anyone who can read the state file can mint any token.
import { DevIssuer, devIssuerFile, devIssuerPort, parseCommandLine } from '@tools/local-stack';
parseCommandLine({
  name: 'dev-issuer',
  usage: 'node dist/scripts/dev-issuer.js',
  summary:
    'The development token issuer (JWKS and a client-credentials endpoint) on DEV_ISSUER_HOST:DEV_ISSUER_PORT, for docker compose. Never for production.',
  flags: {},
});

const stored = await DevIssuer.loadOrCreate(devIssuerFile());
const secret = process.env.DEV_ISSUER_CLIENT_SECRET;
const issuer = secret ? DevIssuer.fromSerialized(JSON.stringify({ ...JSON.parse(stored.serialize()), clientSecret: secret })) : stored;
const url = await issuer.listen(devIssuerPort(), process.env.DEV_ISSUER_HOST || '127.0.0.1');
// The server does not hold the process open by itself (see DevIssuer.listen): this process is only it.
const keepAlive = setInterval(() => undefined, 2 ** 30);
console.log(`[dev-issuer] JWKS at ${url}/.well-known/jwks.json, token endpoint ${url}/oauth/token`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    clearInterval(keepAlive);
    void issuer.close().then(() => process.exit(0));
  });
}
