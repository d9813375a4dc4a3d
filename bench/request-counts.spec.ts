import { describe, expect, it } from '@jest/globals';
import { describeShed, type RequestCounts, requestsPerOrder, shedBetween } from './request-counts.js';

/** A reading of the loop: each app's transactions, statements and round trips, and the door's refusals by figure. */
function reading(
  byApp: Record<string, [transactions: number, statements: number, roundTrips: number]>,
  shedBySignal: Record<string, number> = {},
): RequestCounts {
  const postgresByService = Object.fromEntries(
    Object.entries(byApp).map(([app, [transactions, statements, roundTrips]]) => [app, { transactions, statements, roundTrips }]),
  );
  return {
    kafkaByApi: { Fetch: 10, Produce: 20 },
    postgresByService,
    httpByService: { orders: 5 },
    shedBySignal,
  };
}

describe('requests per order', () => {
  it('when two readings differ, then each app gets its own share per order and the totals add them up', () => {
    const before = reading({ orders: [100, 400, 200], inventory: [50, 300, 100] });
    const after = reading({ orders: [300, 1000, 500], inventory: [60, 400, 150] });
    const figures = requestsPerOrder(before, after, 100);
    expect(figures.postgres.byService).toEqual({
      orders: { transactionsPerOrder: 2, statementsPerOrder: 6, roundTripsPerOrder: 3 },
      inventory: { transactionsPerOrder: 0.1, statementsPerOrder: 1, roundTripsPerOrder: 0.5 },
    });
    expect(figures.postgres).toMatchObject({ transactionsPerOrder: 2.1, statementsPerOrder: 7, roundTripsPerOrder: 3.5 });
  });

  it('when an app was not read before (it started during the run), then its figures count from zero', () => {
    const before = reading({ orders: [100, 400, 200] });
    const after = reading({ orders: [100, 400, 200], loyalty: [30, 60, 40] });
    expect(requestsPerOrder(before, after, 10).postgres.byService.loyalty).toEqual({
      transactionsPerOrder: 3,
      statementsPerOrder: 6,
      roundTripsPerOrder: 4,
    });
  });

  it('when no order finished, then every figure is NaN rather than a division by zero passed off as a number', () => {
    const counts = reading({ orders: [1, 2, 3] });
    const figures = requestsPerOrder(counts, reading({ orders: [2, 4, 6] }), 0);
    expect(figures.postgres.transactionsPerOrder).toBeNaN();
    expect(figures.postgres.byService.orders.statementsPerOrder).toBeNaN();
  });
});

describe('refusals by the figure past its bound', () => {
  it('when two readings differ, then each figure counts its own refusals between them, most first, and the unchanged are left out', () => {
    const before = reading({}, { in_flight: 100, outbox_pending: 7, event_loop_delay_ms: 3 });
    const after = reading({}, { in_flight: 150, outbox_pending: 7, event_loop_delay_ms: 903, db_pool_waiting: 2 });
    const shed = shedBetween(before, after);
    expect(shed).toEqual({ event_loop_delay_ms: 900, in_flight: 50, db_pool_waiting: 2 });
    expect(Object.keys(shed)).toEqual(['event_loop_delay_ms', 'in_flight', 'db_pool_waiting']);
    expect(describeShed(shed)).toBe('event_loop_delay_ms 900, in_flight 50, db_pool_waiting 2');
  });

  it('when nothing was refused, then there is no figure to name', () => {
    const counts = reading({}, { in_flight: 4 });
    expect(shedBetween(counts, counts)).toEqual({});
    expect(describeShed({})).toBe('none');
  });
});
