// `npm run -s token -- --sub c1`: prints an access token of the development issuer that `npm start`
// runs (its key pair is in .local/dev-issuer/, created on first use), for curl and the README
// walkthrough. `--admin` adds the admin scope (may set stock); `--service` prints inventory's
// client-credentials-shaped token (sub = client_id = inventory, scope loyalty:accruals:write);
// `--api orders|inventory|loyalty` names the API the token is for (each API accepts only its own
// audience; default: orders for a customer, inventory for --admin, loyalty for --service);
// `--ttl <seconds>` sets its lifetime (default 3600). Only for this machine: a real deployment gets
// tokens from its OIDC provider (docs/auth.md).
import { ADMIN_SCOPE } from '@libs/auth';
import { loadDotEnv } from '@libs/config';
import { DevServiceClient, localIssuer, parseCommandLine, type ServiceName } from '@tools/local-stack';

const APIS: readonly string[] = ['orders', 'inventory', 'loyalty'] satisfies ServiceName[];
const USAGE =
  'usage: npm run -s token -- --sub <customer id> | --admin [--sub <operator>] | --service   [--api orders|inventory|loyalty] [--ttl <seconds>]';

const { values } = parseCommandLine({
  name: 'token',
  usage: 'npm run -s token --',
  summary:
    "Prints an access token of the development issuer of this clone (.local/dev-issuer/): a customer's, an operator's (--admin) or inventory's service token.",
  flags: {
    sub: { type: 'string', placeholder: 'id', description: 'the customer (or, with --admin, the operator) the token is for' },
    admin: { type: 'boolean', description: 'an operator token with the admin scope (may set stock)' },
    service: { type: 'boolean', description: "inventory's client-credentials-shaped token for loyalty" },
    api: { type: 'string', placeholder: APIS.join('|'), description: 'the API (audience) the token is for' },
    ttl: { type: 'string', placeholder: 'seconds', description: 'lifetime, default 3600' },
  },
});

try {
  loadDotEnv();
  const ttl = values.ttl === undefined ? 3600 : Number(values.ttl);
  if (!Number.isInteger(ttl) || ttl < 1) throw new Error(`--ttl must be a whole number of seconds, got "${values.ttl}"`);
  if (values.api !== undefined && !APIS.includes(values.api))
    throw new Error(`--api must be one of ${APIS.join(', ')}, got "${values.api}"`);
  const api = (fallback: ServiceName) => (values.api as ServiceName | undefined) ?? fallback;
  const { issuer, external } = await localIssuer();
  if (external)
    console.error(`warning: AUTH_JWKS_URL names another provider (${process.env.AUTH_JWKS_URL}); the apps will refuse this token`);
  let token: string;
  if (values.service) {
    token = await issuer.sign({
      sub: DevServiceClient.id,
      clientId: DevServiceClient.id,
      scopes: [...DevServiceClient.scopes],
      api: api(DevServiceClient.api),
      expiresInSeconds: ttl,
    });
  } else if (values.admin) {
    token = await issuer.sign({ sub: values.sub ?? 'operator', scopes: [ADMIN_SCOPE], api: api('inventory'), expiresInSeconds: ttl });
  } else if (values.sub) {
    token = await issuer.sign({ sub: values.sub, api: api('orders'), expiresInSeconds: ttl });
  } else {
    throw new Error('say whose token: --sub <customer id>, --admin or --service');
  }
  console.log(token);
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
