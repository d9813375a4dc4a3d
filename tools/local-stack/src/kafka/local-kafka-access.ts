import { type KafkaSecurity, kafkaSecurityFromEnvironment } from '@libs/kafka';
import { localVerifyEnv } from '../envelope/local-signing-keys.js';
import { kafkaSaslEnv, kafkaSaslSecurity, localKafkaCredentials } from './local-kafka-credentials.js';

/**
 * How the local tooling's own Kafka clients (probes, topic set-up, recorders, test producers)
 * authenticate: as the environment says when it names a SASL mechanism (a broker of the user's),
 * else as the local brokers' super user `admin`.
 */
export function toolingKafkaSecurity(source: NodeJS.ProcessEnv = process.env): KafkaSecurity {
  return source.KAFKA_SASL_MECHANISM ? kafkaSecurityFromEnvironment(source) : kafkaSaslSecurity(localKafkaCredentials(source), 'admin');
}

/** True when the tooling authenticates with the local credentials (so it may create their ACLs). */
export function usesLocalKafkaCredentials(source: NodeJS.ProcessEnv = process.env): boolean {
  return !source.KAFKA_SASL_MECHANISM || source.KAFKA_SASL_USERNAME === 'admin';
}

/**
 * What a process of the local tooling (the Jest run, chaos, the bench) adds to its own
 * environment so that every client it builds connects and signs as the local stack does: the
 * `admin` user's `KAFKA_SASL_*` and every local producer's public key (`MESSAGE_VERIFY_KEYS`), each
 * unless the environment already sets its own. No private key: a test that signs as a producer
 * asks for that producer's key (`localProducerSigningKey`).
 */
export function localToolingEnv(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    ...(source.KAFKA_SASL_MECHANISM ? {} : kafkaSaslEnv(localKafkaCredentials(source), 'admin')),
    ...(source.MESSAGE_VERIFY_KEYS ? {} : localVerifyEnv(source)),
  };
}
