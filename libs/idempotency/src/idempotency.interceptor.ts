import {
  BadRequestException,
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
  UnprocessableEntityException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { failpoint } from '@app/failpoints';
import { routeLabel } from '@app/metrics';
import { IDEMPOTENT_OPTIONS, type IdempotentOptions } from './idempotent.options.js';
import { IdempotencyMetrics } from './idempotency.metrics.js';
import { IdempotencyStore } from './idempotency.store.js';
import { requestFingerprint } from './request-fingerprint.js';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** What an `Idempotency-Key` must look like: 8 to 200 characters, a safe alphabet, no spaces. */
export const IDEMPOTENCY_KEY_FORMAT = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,199}$/;

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(IdempotencyStore) private readonly store: IdempotencyStore,
    @Inject(IdempotencyMetrics) private readonly metrics: IdempotencyMetrics,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const options = this.reflector.get<IdempotentOptions>(IDEMPOTENT_OPTIONS, context.getHandler());
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const key = request.header(IDEMPOTENCY_KEY_HEADER);
    if (key === undefined) {
      if (options.required) throw new BadRequestException({
        statusCode: 400,
        error: 'Bad Request',
        message: ['Idempotency-Key header is required'],
        fields: ['Idempotency-Key'],
      });
      return next.handle();
    }
    if (!IDEMPOTENCY_KEY_FORMAT.test(key)) {
      throw new BadRequestException({
        statusCode: 400,
        error: 'Bad Request',
        message: ['Idempotency-Key header must be 8 to 200 characters of letters, digits, ".", "_", ":" or "-"'],
        fields: ['Idempotency-Key'],
      });
    }
    const fingerprint = requestFingerprint(request.method, request.path, request.body);
    return from(
      (async () => {
        // The handler runs inside the store's transaction, so its writes and the key commit together.
        const outcome = await this.store.execute(key, fingerprint, options.status, () =>
          lastValueFrom(next.handle(), { defaultValue: undefined }),
        );
        const route = routeLabel(request);
        if (outcome.kind === 'conflict') {
          this.metrics.conflicts.inc({ route });
          throw new UnprocessableEntityException({
            statusCode: 422,
            error: 'Unprocessable Entity',
            code: 'IDEMPOTENCY.KEY_REUSED',
            message: ['Idempotency-Key was already used with a different request body'],
            fields: ['Idempotency-Key'],
          });
        }
        // Context: the key and whether this call executed or replayed, so a test can slow down the
        // first answer (`<name>@<key> executed=sleep(<ms>)`) and let the retry's replay through.
        if (options.afterCommitFailpoint) await failpoint(options.afterCommitFailpoint, `${key} ${outcome.kind}`);
        if (outcome.kind === 'replayed') {
          this.metrics.replays.inc({ route });
          response.setHeader('Idempotent-Replayed', 'true');
        }
        return outcome.body;
      })(),
    );
  }
}
