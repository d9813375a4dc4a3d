import { env, type EnvSchema } from '@libs/config';

const hostPort = (what: string, port: number) =>
  env.port({ description: `Host port (on 127.0.0.1) of ${what} in docker-compose.yml`, default: port });
const password = (user: string) =>
  env.string({
    description: `SASL/SCRAM password of the Kafka user \`${user}\` in docker-compose.yml (secret; the default is public, for this machine only)`,
    default: `compose-dev-only-${user}-password`,
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
