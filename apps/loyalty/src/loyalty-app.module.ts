import { type DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { AuthModule } from '@app/auth';
import { DatabaseModule } from '@app/database';
import { HealthModule } from '@app/health';
import { IdempotencyCleanupModule, IdempotencyConfigModule } from '@app/idempotency';
import { MetricsModule } from '@app/metrics';
import { TelemetryModule } from '@app/telemetry';
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
