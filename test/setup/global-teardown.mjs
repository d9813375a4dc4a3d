import { localStack } from './local-stack.mjs';

/** Stops the run's token issuer, and the broker and Postgres only if the setup started them; those you started yourself keep running. */
export default async function globalTeardown() {
  // Jest decides the run's exit code from its results, and sets it only when a test failed. Code
  // under test runs in this very process (--runInBand): anything in it that left process.exitCode
  // set would fail a run whose every test passed, with no message. Say so, and leave the verdict
  // to Jest.
  if (process.exitCode) {
    console.warn(
      `[test teardown] process.exitCode was ${process.exitCode} when the tests ended, set by code under test, not by Jest; Jest's results decide the exit code`,
    );
    process.exitCode = undefined;
  }
  await globalThis.__testIssuer?.close();
  if (globalThis.__kafkaSource) localStack.stopKafkaStartedBy(globalThis.__kafkaSource, localStack.findRepoRoot());
  await globalThis.__postgres?.stop();
}
