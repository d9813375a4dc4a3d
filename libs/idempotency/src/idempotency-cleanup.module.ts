import { type DynamicModule, Module } from '@nestjs/common';
import { retentionJob } from '@libs/database';
import { idempotencyRetention } from './idempotency.cleanup.js';
import { IDEMPOTENCY_CONFIG, type IdempotencyConfig } from './idempotency.config.js';

/**
 * Schedules the retention of idempotency keys ({@link idempotencyRetention}). Imported once per app, next to `ScheduleModule.forRoot()`
 * and `DatabaseModule`; separate from `IdempotencyModule`, which feature modules import without
 * configuration.
 */
@Module({})
export class IdempotencyCleanupModule {
  static forRoot(config: IdempotencyConfig): DynamicModule {
    return {
      module: IdempotencyCleanupModule,
      providers: [
        { provide: IDEMPOTENCY_CONFIG, useValue: config },
        retentionJob({ inject: [IDEMPOTENCY_CONFIG], policy: idempotencyRetention }),
      ],
    };
  }
}
