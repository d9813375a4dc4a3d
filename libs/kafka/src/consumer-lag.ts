import type { Admin } from 'kafkajs';

/** Lag of one partition: records at or after the group's position that it has not consumed yet. */
export interface PartitionLag {
  topic: string;
  partition: number;
  lag: number;
}

/**
 * Per-partition lag of `groupId` on `topics`: topic end offset (high watermark) minus the group's
 * committed offset. A partition without a commit (`-1`) counts from the earliest retained offset,
 * because the apps subscribe `fromBeginning` and would start there.
 */
export async function consumerLag(admin: Admin, groupId: string, topics: string[]): Promise<PartitionLag[]> {
  const committed = await admin.fetchOffsets({ groupId, topics });
  const lags: PartitionLag[] = [];
  for (const topic of topics) {
    const ends = await admin.fetchTopicOffsets(topic);
    const positions = new Map(
      committed.find((entry) => entry.topic === topic)?.partitions.map((p) => [p.partition, Number(p.offset)]) ?? [],
    );
    for (const { partition, high, low } of ends) {
      const position = positions.get(partition) ?? -1;
      const from = position < 0 ? Number(low) : position;
      lags.push({ topic, partition, lag: Math.max(0, Number(high) - from) });
    }
  }
  return lags;
}
