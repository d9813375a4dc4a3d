import { OrderEvents, Topics } from '@libs/contracts';
import { type AppProduces, producedTopic } from '@libs/outbox';

/**
 * What orders writes through its outbox, declared once: the topics `main.ts` creates, the AsyncAPI
 * document, the service catalog (and so its Kafka ACLs) and its service page all read it. A message
 * added to `OrderEvents` is declared here with it.
 */
export const ordersProduces: AppProduces = [producedTopic({ topic: Topics.orders, sends: OrderEvents })];
