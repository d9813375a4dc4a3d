import { type DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { AuthModule } from '@libs/auth';
import { DatabaseModule } from '@libs/database';
import { HealthModule } from '@libs/health';
import { IdempotencyCleanupModule, IdempotencyConfigModule } from '@libs/idempotency';
import { MetricsModule } from '@libs/metrics';
import { TelemetryModule } from '@libs/telemetry';
import { AccrualsModule } from './accruals/accruals.module.js';
import { BalancesModule } from './balances/balances.module.js';
import type { LoyaltyConfig } from './loyalty.config.js';
import { createLoyaltyDataSource } from './loyalty.data-source.js';
import { ReversalsModule } from './reversals/reversals.module.js';

/** Loyalty: stands in for an external partner API that credits (and takes back) points, idempotently. */
@Module({})
export class LoyaltyAppModule {
  static forRoot(config: LoyaltyConfig): DynamicModule {
    return {
      module: LoyaltyAppModule,
      imports: [
        AuthModule.forRoot(config),
        DatabaseModule.forRoot({ useFactory: () => createLoyaltyDataSource(config) }),
        MetricsModule.forRoot({ service: 'loyalty' }),
        TelemetryModule,
        HealthModule.forRoot({ kafka: false }),
        ScheduleModule.forRoot(),
        IdempotencyConfigModule.forRoot(config),
        IdempotencyCleanupModule.forRoot(config),
        AccrualsModule,
        ReversalsModule,
        BalancesModule,
      ],
    };
  }
}
