import { localStack } from './local-stack.mjs';

/** Stops the run's token issuer, and the broker only if the setup started it; a broker you started yourself keeps running. */
export default async function globalTeardown() {
  await globalThis.__testIssuer?.close();
  if (globalThis.__kafkaSource) localStack.stopKafkaStartedBy(globalThis.__kafkaSource, localStack.findRepoRoot());
}
