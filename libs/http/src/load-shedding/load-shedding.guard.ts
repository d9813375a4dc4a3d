import { type CanActivate, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ProblemException } from '../problem.exception.js';
import { RequestErrorCodes } from '../request-error-codes.js';
import { BacklogSampler } from './backlog-sampler.js';

/**
 * Refuses the request with 503 `SERVER.OVERLOADED` and `Retry-After` while a backlog figure is past
 * its bound. A guard, so it runs after authentication and before every interceptor, pipe and
 * handler: a shed request opens no transaction, stores no idempotency key and writes nothing, and
 * the client may send the very same request again later.
 */
@Injectable()
export class LoadSheddingGuard implements CanActivate {
  constructor(@Inject(BacklogSampler) private readonly sampler: BacklogSampler) {}

  canActivate(): boolean {
    const over = this.sampler.overBound();
    if (!over) return true;
    this.sampler.shed.inc({ signal: over.signal });
    throw new ProblemException(
      HttpStatus.SERVICE_UNAVAILABLE,
      RequestErrorCodes.OVERLOADED,
      `Too much work is waiting (${over.signal} is ${Math.round(over.value)}, past its bound of ${over.bound}); nothing was done, send the same request again after Retry-After`,
      [],
      {},
      this.sampler.options.retryAfterSeconds,
    );
  }
}
