import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { INVENTORY_CONFIG } from '../inventory-config.token.js';
import type { InventoryConfig } from '../inventory.config.js';
import { LoyaltyDispatcher } from './loyalty.dispatcher.js';

const DISPATCH_INTERVAL = 'loyalty-dispatch';

/** Runs the dispatcher on an `@nestjs/schedule` interval; awaits the running cycle on shutdown. */
@Injectable()
export class LoyaltyDispatchScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(SchedulerRegistry) private readonly registry: SchedulerRegistry,
    @Inject(LoyaltyDispatcher) private readonly dispatcher: LoyaltyDispatcher,
    @Inject(INVENTORY_CONFIG) private readonly config: InventoryConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.registry.addInterval(DISPATCH_INTERVAL, setInterval(() => this.dispatcher.tick(), this.config.LOYALTY_DISPATCH_INTERVAL_MS));
  }

  async onModuleDestroy(): Promise<void> {
    if (this.registry.doesExist('interval', DISPATCH_INTERVAL)) this.registry.deleteInterval(DISPATCH_INTERVAL);
    await this.dispatcher.stop();
  }
}
