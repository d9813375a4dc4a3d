import { testing } from './testing-lib.mjs';

/** Stops the broker only if the setup started it; a broker you started yourself keeps running. */
export default async function globalTeardown() {
  if (globalThis.__kafkaSource) testing.stopKafkaStartedBy(globalThis.__kafkaSource, testing.findRepoRoot());
}
