import { Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyStore } from './idempotency.store.js';

/** Provides the store and interceptor behind `@Idempotent()`. Needs `DatabaseModule`. */
@Module({ providers: [IdempotencyStore, IdempotencyInterceptor], exports: [IdempotencyStore, IdempotencyInterceptor] })
export class IdempotencyModule {}
