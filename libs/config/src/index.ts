export { env, envDefault } from './env-variable.js';
export type { EnvConfig, EnvSchema, EnvValue, EnvVariable } from './env-variable.js';
export { ConfigValidationError } from './config-validation.error.js';
export { loadConfig } from './load-config.js';
export { renderEnvExample } from './env-example.js';
export { envDefaultCell, renderEnvTable, type DefaultText } from './env-table.js';
export { bootstrapOrExit } from './bootstrap-or-exit.js';
export { redactCredentials } from './redact-credentials.js';
export { loadDotEnv } from './load-dot-env.js';
