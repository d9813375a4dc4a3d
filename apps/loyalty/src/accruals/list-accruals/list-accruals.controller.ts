import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@libs/auth';
import { TransactionContext } from '@libs/database';
import { ApiErrors, validationFailed } from '@libs/http';
import { AccrualListResponse, toAccrualResponse } from '../accrual.response.js';
import { Accrual } from '../accrual.entity.js';
import { decodeAccrualCursor, encodeAccrualCursor } from './accrual-cursor.js';
import { AccrualPages, ListAccrualsRequest } from './list-accruals.request.js';

interface AccrualRow {
  id: string;
  customer_id: string;
  order_id: string;
  points: number;
  created_at: Date;
  /** `created_at` as Postgres prints it, microseconds included: the cursor's position. */
  position: string;
}

@ApiTags('accruals')
@Controller('accruals')
export class ListAccrualsController {
  constructor(private readonly tx: TransactionContext) {}

  /**
   * One page, oldest first, by keyset (`created_at`, `id`) on the `(customer_id, created_at)`
   * index: a page costs the same at the millionth row as at the first, unlike an OFFSET, and a
   * row inserted meanwhile is neither skipped nor repeated. `totalPoints` is the customer's
   * whole sum, not the page's.
   */
  @Get()
  @ApiOperation({ summary: "List the caller's own accruals (the token's subject), a page at a time, and their total" })
  @ApiOkResponse({ type: AccrualListResponse })
  @ApiErrors({ 400: 'limit not 1 to 100, a cursor this API did not give, or another query parameter (customerId included: none is taken)' })
  async list(@Query() query: ListAccrualsRequest, @CurrentPrincipal() principal: Principal): Promise<AccrualListResponse> {
    const customerId = principal.subject;
    const limit = query.limit ?? AccrualPages.defaultLimit;
    const after = query.cursor === undefined ? undefined : decodeAccrualCursor(query.cursor);
    if (query.cursor !== undefined && after === undefined) {
      throw validationFailed([{ field: 'cursor', detail: 'cursor must be a nextCursor of this API, as given' }]);
    }
    const manager = this.tx.manager;
    // One row more than the page tells whether another page follows.
    const rows: AccrualRow[] = await manager.query(
      `SELECT id, customer_id, order_id, points, created_at, created_at::text AS position
         FROM accruals
        WHERE customer_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::uuid))
        ORDER BY created_at, id
        LIMIT $4`,
      [customerId, after?.createdAt ?? null, after?.id ?? null, limit + 1],
    );
    const [{ total }] = await manager.query<{ total: number }[]>(
      'SELECT COALESCE(SUM(points), 0)::int AS total FROM accruals WHERE customer_id = $1',
      [customerId],
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      customerId,
      totalPoints: total,
      items: page.map((row) =>
        toAccrualResponse(
          Object.assign(new Accrual(), {
            id: row.id,
            customerId: row.customer_id,
            orderId: row.order_id,
            points: row.points,
            createdAt: row.created_at,
          }),
        ),
      ),
      ...(rows.length > limit && last ? { nextCursor: encodeAccrualCursor({ createdAt: last.position, id: last.id }) } : {}),
    };
  }
}
