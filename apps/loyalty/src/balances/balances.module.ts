import { Module } from '@nestjs/common';
import { GetBalanceController } from './get-balance/get-balance.controller.js';

@Module({ controllers: [GetBalanceController] })
export class BalancesModule {}
