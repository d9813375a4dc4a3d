import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';

/** `GET /health` entry: the pool can run a query within the timeout. */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(HealthIndicatorService) private readonly health: HealthIndicatorService,
  ) {}

  check(timeoutMs = 2000) {
    return this.health
      .check('database')
      .attempt(async () => {
        await this.dataSource.query('SELECT 1');
      })
      .withTimeout(timeoutMs);
  }
}
