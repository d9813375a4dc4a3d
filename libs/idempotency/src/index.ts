export { IdempotencyKey } from './idempotency-key.entity.js';
export { CreateIdempotencyKeys1764460800000 } from './create-idempotency-keys.migration.js';
export { requestFingerprint } from './request-fingerprint.js';
export { IdempotencyStore, type IdempotentOutcome } from './idempotency.store.js';
export { Idempotent } from './idempotent.decorator.js';
export type { IdempotentOptions } from './idempotent.options.js';
export { IdempotencyInterceptor, IDEMPOTENCY_KEY_HEADER } from './idempotency.interceptor.js';
export { IdempotencyModule } from './idempotency.module.js';
export { IdempotencyMetrics } from './idempotency.metrics.js';
