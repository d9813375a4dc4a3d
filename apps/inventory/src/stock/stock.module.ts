import { Module } from '@nestjs/common';
import { GetStockController } from './get-stock/get-stock.controller.js';
import { SetStockController } from './set-stock/set-stock.controller.js';
import { SetStockService } from './set-stock/set-stock.service.js';

@Module({ controllers: [GetStockController, SetStockController], providers: [SetStockService], exports: [SetStockService] })
export class StockModule {}
