import { Inject, Injectable } from '@nestjs/common';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { dayPartitionGauges } from '@libs/database';

/** `inbox_partitions_ahead_days` and `inbox_default_partition_rows`, read from the catalogue at scrape time. */
@Injectable()
export class InboxPartitionsGauges {
  constructor(@Inject(Registry) registry: Registry, @Inject(DataSource) dataSource: DataSource) {
    dayPartitionGauges(registry, dataSource, 'inbox', 'inbox_messages');
  }
}
