import type { ApiDocsOptions } from '@libs/http';

/** Head of the loyalty OpenAPI document (`GET /docs-json`). */
export const loyaltyApiDocs: ApiDocsOptions = {
  title: 'loyalty',
  description:
    'Stands in for an external partner API that credits loyalty points. POST /accruals requires an Idempotency-Key: ' +
    'a repeat with the same key and body returns the stored response, the same key with another body is 422. ' +
    "POST /reversals takes back an order's accrual (the compensation of a cancel), at most once per order, under the same rules; " +
    "GET /balance gives a customer's accrued, reversed and remaining points.",
};
