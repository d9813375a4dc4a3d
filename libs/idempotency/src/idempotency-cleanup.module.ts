import { type DynamicModule, Module } from '@nestjs/common';
import { IdempotencyCleanup } from './idempotency.cleanup.js';
import { IdempotencyCleanupScheduler } from './idempotency-cleanup.scheduler.js';
import { IDEMPOTENCY_CONFIG, type IdempotencyConfig } from './idempotency.config.js';

/**
 * Schedules {@link IdempotencyCleanup}. Imported once per app, next to `ScheduleModule.forRoot()`
 * and `DatabaseModule`; separate from `IdempotencyModule`, which feature modules import without
 * configuration.
 */
@Module({})
export class IdempotencyCleanupModule {
  static forRoot(config: IdempotencyConfig): DynamicModule {
    return {
      module: IdempotencyCleanupModule,
      providers: [{ provide: IDEMPOTENCY_CONFIG, useValue: config }, IdempotencyCleanup, IdempotencyCleanupScheduler],
      exports: [IdempotencyCleanup],
    };
  }
}
