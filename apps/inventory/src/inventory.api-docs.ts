import type { ApiDocsOptions } from '@libs/http';

/** Head of the inventory OpenAPI document (`GET /docs-json`). */
export const inventoryApiDocs: ApiDocsOptions = {
  title: 'inventory',
  description:
    'Stock administration for demos and tests. Reservations are not made over HTTP: inventory reserves stock when it ' +
    'consumes OrderCreated from Kafka, through its inbox.',
};
