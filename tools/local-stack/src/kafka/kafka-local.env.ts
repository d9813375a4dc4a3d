import { env } from '@libs/config';

/**
 * The variables scripts/kafka-local.sh reads, as its header documents them (test/kafka-local-env.spec.ts
 * compares the two), so the configuration reference
 * (docs/configuration.md) lists them. The script applies the defaults itself; a
 * default that depends on the node count is empty here and spelled out in the description.
 */
export const kafkaLocalEnv = {
  KAFKA_LOCAL_NODES: env.integer({ description: 'Number of local broker nodes (scripts/kafka-local.sh)', default: 1, min: 1, max: 99 }),
  KAFKA_LOCAL_PORT: env.port({ description: 'Client port of node 1; node i > 1 listens on it plus 10*(i-1)', default: 9092 }),
  KAFKA_LOCAL_CONTROLLER_PORT: env.port({
    description: 'KRaft controller port of node 1; node i > 1 uses it plus 10*(i-1)',
    default: 9093,
  }),
  KAFKA_LOCAL_PORTS: env.list({ description: 'Client ports, one per node (overrides the +10 rule)', default: [] }),
  KAFKA_LOCAL_CONTROLLER_PORTS: env.list({ description: 'Controller ports, one per node (overrides the +10 rule)', default: [] }),
  KAFKA_LOCAL_HOSTS: env.list({ description: 'Address each node listens and advertises on, one per node', default: ['127.0.0.1'] }),
  KAFKA_LOCAL_NETNS: env.list({
    description: 'Network namespace each node runs in (`ip netns exec`), one per node; empty: none',
    default: [],
  }),
  KAFKA_LOCAL_DIR: env.string({ description: 'State directory of the local broker(s); empty: <repo>/.local/kafka', default: '' }),
  KAFKA_LOCAL_DATA_DIR: env.string({
    description: 'Broker data (log.dirs); empty: $KAFKA_LOCAL_DIR/data (N > 1: node i keeps <dir>/node-i)',
    default: '',
  }),
  KAFKA_TOPIC_REPLICATION_FACTOR: env.string({
    description: "The local broker's default replication factor of new topics; empty: min(3, N)",
    default: '',
  }),
  KAFKA_TOPIC_MIN_INSYNC_REPLICAS: env.string({
    description: "The local broker's default min.insync.replicas; empty: 2 when N > 1, else 1",
    default: '',
  }),
  KAFKA_LOCAL_BROKER_SESSION_TIMEOUT_MS: env.string({
    description: 'How soon a dead local node is fenced; empty: 9000 (1 node), 3000 (N > 1)',
    default: '',
  }),
  KAFKA_LOCAL_CREDENTIALS_FILE: env.string({
    description: "The local SASL/SCRAM users' passwords, `user=password` lines (secret); empty: <repo>/.local/kafka-credentials.properties",
    default: '',
  }),
  KAFKA_LOCAL_HEAP: env.string({
    description: 'JVM heap flags per node; empty: "-Xms256m -Xmx512m" (1 node), less with C1 only and serial GC (N > 1)',
    default: '',
  }),
  JAVA_HOME: env.string({ description: 'The Java 17+ that runs the local broker; empty: java on PATH', default: '' }),
};
