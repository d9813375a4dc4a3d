import { type CallHandler, type ExecutionContext, HttpStatus, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import type { Principal } from '@libs/auth';
import { failpoint } from '@libs/failpoints';
import { ProblemException, validateRequestBody } from '@libs/http';
import { routeLabel } from '@libs/metrics';
import { IdempotencyErrorCodes } from './idempotency.error-codes.js';
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
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const response = context.switchToHttp().getResponse<FastifyReply>();
    // Node joins a repeated header into one string (", "), which the format check refuses.
    const key = request.headers[IDEMPOTENCY_KEY_HEADER] as string | undefined;
    if (key === undefined) {
      if (options.required) {
        throw new ProblemException(HttpStatus.BAD_REQUEST, IdempotencyErrorCodes.KEY_REQUIRED, 'Idempotency-Key header is required', [
          { field: 'Idempotency-Key', detail: 'Idempotency-Key header is required' },
        ]);
      }
      return next.handle();
    }
    if (!IDEMPOTENCY_KEY_FORMAT.test(key)) {
      const detail = 'Idempotency-Key header must be 8 to 200 characters of letters, digits, ".", "_", ":" or "-"';
      throw new ProblemException(HttpStatus.BAD_REQUEST, IdempotencyErrorCodes.KEY_MALFORMED, detail, [
        { field: 'Idempotency-Key', detail },
      ]);
    }
    const fingerprint = requestFingerprint(request.method, request.url.split('?', 1)[0], request.body);
    return from(
      (async () => {
        // Before the transaction, not in it (Nest runs pipes inside next.handle()): a malformed
        // body is refused without a connection, a lock or a stored key (an anonymous caller must cost nothing).
        await validateRequestBody(context);
        // The handler runs inside the store's transaction, so its writes and the key commit together.
        // The global auth guard ran first: every idempotent route is authenticated, and a key
        // belongs to its caller only.
        const principal = (request as FastifyRequest & { principal?: Principal }).principal;
        if (!principal) throw new Error('idempotent route without an authenticated principal: is AuthModule imported?');
        const outcome = await this.store.execute(principal.subject, key, fingerprint, options.status, () =>
          lastValueFrom(next.handle(), { defaultValue: undefined }),
        );
        const route = routeLabel(request);
        if (outcome.kind === 'quota-exceeded') {
          throw new ProblemException(
            HttpStatus.TOO_MANY_REQUESTS,
            IdempotencyErrorCodes.QUOTA_EXCEEDED,
            'Too many new Idempotency-Keys from this caller; nothing was done. Retry after Retry-After seconds; a retry with a key already answered is never refused',
            [],
            {},
            outcome.retryAfterSeconds,
          );
        }
        if (outcome.kind === 'conflict') {
          this.metrics.conflicts.inc({ route });
          const detail = 'Idempotency-Key was already used with a different request body';
          throw new ProblemException(HttpStatus.UNPROCESSABLE_ENTITY, IdempotencyErrorCodes.KEY_REUSED, detail, [
            { field: 'Idempotency-Key', detail },
          ]);
        }
        // Context: a server-side scope of the stored answer (never the client's key) and whether
        // this call executed or replayed, so a test can slow down the first answer
        // (`<name>@<orderId> executed=sleep(<ms>)`) and let the retry's replay through.
        if (options.afterCommitFailpoint) {
          const scope = options.failpointScope?.(outcome.body as never) ?? '';
          await failpoint(options.afterCommitFailpoint, `${scope} ${outcome.kind}`);
        }
        if (outcome.kind === 'replayed') {
          this.metrics.replays.inc({ route });
          response.header('Idempotent-Replayed', 'true');
        }
        return outcome.body;
      })(),
    );
  }
}
