import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata, UseInterceptors } from '@nestjs/common';
import type { KafkaContext } from '@nestjs/microservices';
import { envelopes, InboxInterceptor } from './inbox.interceptor.js';
import { INBOX_OPTIONS, type InboxHandlerOptions } from './inbox-handler.options.js';

/**
 * Puts an `@EventPattern` handler behind the inbox: validated, deduplicated, run in the inbox
 * transaction, retried, dead-lettered. The handler joins the transaction via TransactionContext.
 */
export function Inbox(options: InboxHandlerOptions): MethodDecorator {
  return applyDecorators(SetMetadata(INBOX_OPTIONS, options), UseInterceptors(InboxInterceptor));
}

/** The validated {@link InboxEnvelope} of the message an `@Inbox` handler is handling. */
export const Envelope = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  envelopes.get(context.switchToRpc().getContext<KafkaContext>().getMessage()),
);
