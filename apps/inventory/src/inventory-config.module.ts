import { type DynamicModule, Module } from '@nestjs/common';
import { INVENTORY_CONFIG } from './inventory-config.token.js';
import type { InventoryConfig } from './inventory.config.js';

/**
 * The validated configuration under {@link INVENTORY_CONFIG}. Global, as Nest's own
 * `ConfigModule.forRoot({ isGlobal: true })`: configuration is read at start-up, never changes, and
 * any feature may need a value of it.
 */
@Module({})
export class InventoryConfigModule {
  static forRoot(config: InventoryConfig): DynamicModule {
    return {
      module: InventoryConfigModule,
      global: true,
      providers: [{ provide: INVENTORY_CONFIG, useValue: config }],
      exports: [INVENTORY_CONFIG],
    };
  }
}
