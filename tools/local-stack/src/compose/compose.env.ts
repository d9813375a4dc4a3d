import { env, type EnvSchema } from '@libs/config';

const hostPort = (what: string, port: number) =>
  env.port({ description: `Host port (on 127.0.0.1) of ${what} in docker-compose.yml`, default: port });
const password = (user: string) =>
  env.string({
    description: `SASL/SCRAM password of the Kafka user \`${user}\` in docker-compose.yml (secret; the default is public, for this machine only)`,
    default: `compose-dev-only-${user}-password`,
  });

/**
 * compose's default Ed25519 key pairs, one per producing app: public (they are in the repository),
 * only to keep the image's NODE_ENV=production satisfied on this machine.
 */
const composeKeys = {
  orders: {
    id: 'compose-orders-dev-only',
    privateKey: 'MC4CAQAwBQYDK2VwBCIEILGvSUeTH/rUT4rUcTNOvz8MdqQcvlzGMOqrYGbAP5f8',
    publicKey: 'MCowBQYDK2VwAyEA9OIAe85Et+DO3WCsmRT2+QQXLRl2zzLPloIDrJey5fw=',
  },
  inventory: {
    id: 'compose-inventory-dev-only',
    privateKey: 'MC4CAQAwBQYDK2VwBCIEIJJyB/6Kl82mXd5y3AITTavCxeXpcVKLenaNUEuKf3mW',
    publicKey: 'MCowBQYDK2VwAyEAad9TCmG/Jncponsxpyiy16fIsb0ULgydTwMsV1YsjSQ=',
  },
};
const signingKey = (app: keyof typeof composeKeys) =>
  env.string({
    description: `${app}'s own MESSAGE_SIGNING_KEY in docker-compose.yml (secret; the default is public, for this machine only)`,
    default: `${composeKeys[app].id}:${composeKeys[app].privateKey}`,
  });
const verifyKeys = (app: string, producer: keyof typeof composeKeys) =>
  env.string({
    description: `${app}'s MESSAGE_VERIFY_KEYS in docker-compose.yml: the public key of ${producer}, whose messages it consumes`,
    default: `${producer}:${composeKeys[producer].id}:${composeKeys[producer].publicKey}`,
  });

/**
 * The variables docker-compose.yml interpolates (`${NAME:-default}`), with the file's defaults
 * (test/docker-compose.spec.ts checks both ways), and those of scripts/compose-smoke.sh.
 */
export const composeEnv: EnvSchema = {
  POSTGRES_HOST_PORT: hostPort('Postgres', 5432),
  KAFKA_HOST_PORT: hostPort('Kafka', 9092),
  KAFKA_1_HOST_PORT: hostPort('cluster node kafka-1', 9092),
  KAFKA_2_HOST_PORT: hostPort('cluster node kafka-2', 9102),
  KAFKA_3_HOST_PORT: hostPort('cluster node kafka-3', 9112),
  ORDERS_HOST_PORT: hostPort('orders', 3000),
  INVENTORY_HOST_PORT: hostPort('inventory', 3001),
  LOYALTY_HOST_PORT: hostPort('loyalty', 3002),
  DEV_ISSUER_HOST_PORT: hostPort('the development issuer', 3010),
  PROMETHEUS_HOST_PORT: hostPort('Prometheus', 9090),
  GRAFANA_HOST_PORT: hostPort('Grafana', 3030),
  JAEGER_HOST_PORT: hostPort("Jaeger's UI", 16686),
  OTLP_HTTP_HOST_PORT: hostPort("Jaeger's OTLP/HTTP receiver", 4318),
  KAFKA_UI_HOST_PORT: hostPort('Kafka UI', 8080),
  KAFKA_BROKER_PASSWORD: password('broker'),
  KAFKA_ADMIN_PASSWORD: password('admin'),
  KAFKA_ORDERS_PASSWORD: password('orders'),
  KAFKA_INVENTORY_PASSWORD: password('inventory'),
  KAFKA_OPS_PASSWORD: password('ops'),
  ORDERS_MESSAGE_SIGNING_KEY: signingKey('orders'),
  ORDERS_MESSAGE_VERIFY_KEYS: verifyKeys('orders', 'inventory'),
  INVENTORY_MESSAGE_SIGNING_KEY: signingKey('inventory'),
  INVENTORY_MESSAGE_VERIFY_KEYS: verifyKeys('inventory', 'orders'),
  DEV_ISSUER_CLIENT_SECRET: env.string({
    description: "Secret of inventory's service client at compose's dev-issuer (secret; the default is public)",
    default: 'compose-dev-only-secret',
  }),
  GRAFANA_ADMIN_PASSWORD: env.string({
    description: "Grafana's admin password (secret); required with the observability profile, Grafana refuses to start without it",
    default: '',
  }),
  COMPOSE_SMOKE_TIMEOUT_S: env.integer({
    description: 'Seconds scripts/compose-smoke.sh waits for its order to be RESERVED',
    default: 120,
    min: 1,
  }),
  COMPOSE_SMOKE_DOWN: env.integer({ description: '1: scripts/compose-smoke.sh stops the stack when done', default: 0, min: 0, max: 1 }),
};
