import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { KafkaContext } from '@nestjs/microservices';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { inboxBatchScope } from './inbox-batch.scope.js';
import { type InboxEnvelope, rawInboxMessage } from './inbox-envelope.js';
import { INBOX_OPTIONS, type InboxHandlerOptions } from './inbox-handler.options.js';
import { InboxProcessor } from './inbox.processor.js';

/** The validated envelope of the message being handled, for the `@Envelope()` parameter. */
export const envelopes = new WeakMap<object, InboxEnvelope>();

/**
 * Nest glue around {@link InboxProcessor} for `@EventPattern` handlers. The handler runs inside
 * the inbox transaction (`next.handle()` is subscribed within it), and the returned Observable
 * completes only after the commit, which is when Nest lets kafkajs resolve the offset. Inside a
 * batch of the batch consumer (`InboxBatchConsumer`), the batch already claimed the message and owns the
 * transaction and the offset: the handler simply runs.
 */
@Injectable()
export class InboxInterceptor implements NestInterceptor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(InboxProcessor) private readonly processor: InboxProcessor,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const options = this.reflector.get<InboxHandlerOptions>(INBOX_OPTIONS, context.getHandler());
    const kafka = context.switchToRpc().getContext<KafkaContext>();
    const message = kafka.getMessage();
    const batch = inboxBatchScope.getStore();
    const claimed =
      batch?.topic === kafka.getTopic() && batch.partition === kafka.getPartition() ? batch.envelopes.get(message.offset) : undefined;
    if (claimed) {
      // Claimed by the batch consumer, whose transaction is the active one: just run the handler.
      envelopes.set(message, claimed);
      return next.handle();
    }
    const raw = rawInboxMessage(kafka.getTopic(), kafka.getPartition(), message);
    return from(
      this.processor.process(
        raw,
        async (envelope) => {
          envelopes.set(message, envelope);
          await lastValueFrom(next.handle(), { defaultValue: undefined });
        },
        { ...options, heartbeat: () => kafka.getHeartbeat()() },
      ),
    );
  }
}
