import type { ApiDocsOptions } from '@libs/http';

/** Head of the orders OpenAPI document (`GET /docs-json`). */
export const ordersApiDocs: ApiDocsOptions = {
  title: 'orders',
  description:
    'Places and cancels orders. Each change is written with its event in one transaction (transactional outbox); ' +
    'the status moves from PENDING to RESERVED or REJECTED when inventory answers through Kafka.',
};
