import { findRepoRoot, type KafkaSource, stopKafkaStartedBy } from '@app/testing';

/** Stops the broker only if the setup started it; a broker you started yourself keeps running. */
export default async function globalTeardown(): Promise<void> {
  const source = (globalThis as { __kafkaSource?: KafkaSource }).__kafkaSource;
  if (source) stopKafkaStartedBy(source, findRepoRoot());
}
