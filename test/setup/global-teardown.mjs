import { localStack } from './local-stack.mjs';

/** Stops the broker only if the setup started it; a broker you started yourself keeps running. */
export default async function globalTeardown() {
  if (globalThis.__kafkaSource) localStack.stopKafkaStartedBy(globalThis.__kafkaSource, localStack.findRepoRoot());
}
