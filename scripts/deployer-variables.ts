/** A group of `.env.example`: a heading and the variables under it. */
export interface DeployerGroup {
  readonly title: string;
  readonly names: readonly string[];
}

/**
 * The variables a deployment must or commonly sets: these, and only these, are in `.env.example`
 * (at most {@link DEPLOYER_VARIABLES_MAX}). Every other declared variable is in the generated
 * reference, docs/configuration.md, so a variable declared anywhere lands there unless it is
 * listed here (test/env-example.spec.ts keeps the two complete and disjoint).
 */
export const DEPLOYER_GROUPS: readonly DeployerGroup[] = [
  { title: 'where each service listens', names: ['NODE_ENV', 'ORDERS_PORT', 'INVENTORY_PORT', 'LOYALTY_PORT'] },
  {
    title: 'PostgreSQL (each app its own database on the server)',
    names: ['DATABASE_URL', 'DATABASE_NAME', 'DATABASE_SSL_MODE', 'DATABASE_SSL_CA_FILE', 'DATABASE_POOL_SIZE'],
  },
  {
    title: 'Kafka',
    names: [
      'KAFKA_BROKERS',
      'KAFKA_SASL_MECHANISM',
      'KAFKA_SASL_USERNAME',
      'KAFKA_SASL_PASSWORD',
      'KAFKA_TLS_ENABLED',
      'KAFKA_TLS_CA_FILE',
      'KAFKA_TOPIC_PARTITIONS',
      'KAFKA_TOPIC_REPLICATION_FACTOR',
      'KAFKA_TOPIC_MIN_INSYNC_REPLICAS',
    ],
  },
  {
    title: 'tokens: the OIDC provider, and the loyalty partner inventory calls',
    names: [
      'AUTH_ISSUER',
      'AUTH_AUDIENCE',
      'AUTH_JWKS_URL',
      'AUTH_CLIENT_TOKEN_URL',
      'AUTH_CLIENT_ID',
      'AUTH_CLIENT_SECRET',
      'LOYALTY_BASE_URL',
    ],
  },
  { title: 'message signatures', names: ['MESSAGE_SIGNING_KEY', 'MESSAGE_VERIFY_KEYS'] },
  { title: 'logs and traces', names: ['LOG_LEVEL', 'LOG_FORMAT', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_TRACES_SAMPLE_PERCENT'] },
  {
    title: 'this machine (npm start, npm run dev, npm test)',
    names: ['ORDERS_DATABASE_NAME', 'INVENTORY_DATABASE_NAME', 'LOYALTY_DATABASE_NAME', 'KAFKA_LOCAL_PORT', 'DEV_ISSUER_PORT'],
  },
];

/** The most variables `.env.example` may list: beyond it, a deployer cannot tell what matters. */
export const DEPLOYER_VARIABLES_MAX = 40;

/** Every name of {@link DEPLOYER_GROUPS}. */
export const deployerVariables: ReadonlySet<string> = new Set(DEPLOYER_GROUPS.flatMap((group) => group.names));
