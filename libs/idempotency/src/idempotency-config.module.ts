import { type DynamicModule, Module } from '@nestjs/common';
import { IDEMPOTENCY_CONFIG, type IdempotencyConfig } from './idempotency.config.js';

/**
 * The validated {@link IdempotencyConfig} under {@link IDEMPOTENCY_CONFIG}, for the store's quota
 * in every feature module that imports `IdempotencyModule`. Imported once per app; global, as
 * configuration is read at start-up and never changes. Without it an idempotent route fails at
 * start (the store cannot be built), never runs without a quota.
 */
@Module({})
export class IdempotencyConfigModule {
  static forRoot(config: IdempotencyConfig): DynamicModule {
    return {
      module: IdempotencyConfigModule,
      global: true,
      providers: [{ provide: IDEMPOTENCY_CONFIG, useValue: config }],
      exports: [IDEMPOTENCY_CONFIG],
    };
  }
}
