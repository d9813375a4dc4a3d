import { Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyMetrics } from './idempotency.metrics.js';
import { IdempotencyStore } from './idempotency.store.js';

/** Provides the store and interceptor behind `@Idempotent()`. Needs `DatabaseModule`. */
@Module({
  providers: [IdempotencyStore, IdempotencyInterceptor, IdempotencyMetrics],
  exports: [IdempotencyStore, IdempotencyInterceptor, IdempotencyMetrics],
})
export class IdempotencyModule {}
