import { Module } from '@nestjs/common';
import { LoyaltyDispatchScheduler } from './loyalty-dispatch.scheduler.js';
import { LoyaltyDispatcher } from './loyalty.dispatcher.js';
import { LoyaltyMetrics } from './loyalty.metrics.js';

@Module({ providers: [LoyaltyMetrics, LoyaltyDispatcher, LoyaltyDispatchScheduler], exports: [LoyaltyDispatcher] })
export class LoyaltyModule {}
