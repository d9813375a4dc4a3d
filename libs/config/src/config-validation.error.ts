/** Thrown at start-up when one or more environment variables are missing or malformed. */
export class ConfigValidationError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((problem) => `  - ${problem}`).join('\n'),
    );
    this.name = 'ConfigValidationError';
  }
}
