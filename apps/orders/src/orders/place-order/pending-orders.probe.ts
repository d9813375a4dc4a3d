import type { BacklogProbe } from '@libs/http';
import type { DataSource } from 'typeorm';

/**
 * `orders_pending`: orders placed and not yet final, counted up to `bound + 1` on their own index.
 * The one figure of the whole loop orders can see: inventory's consumer lag is not visible here,
 * but every order it has not answered yet is still PENDING, so this grows with any stage behind.
 */
export function pendingOrdersProbe(dataSource: DataSource, bound: number): BacklogProbe {
  const sql = `SELECT count(*)::int AS n FROM (SELECT 1 FROM orders WHERE status = 'PENDING' LIMIT ${Math.floor(bound) + 1}) AS bounded`;
  return {
    read: async () => {
      const [row] = await dataSource.query<{ n: number }[]>(sql);
      return [{ signal: 'orders_pending', value: row.n, bound }];
    },
  };
}
