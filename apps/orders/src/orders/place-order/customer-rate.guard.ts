import { type CanActivate, type ExecutionContext, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { type Principal, PRINCIPAL_PROPERTY } from '@libs/auth';
import { ProblemException, TokenBuckets } from '@libs/http';
import { OrdersErrorCodes } from '../../orders.error-codes.js';

/** Injection token of the {@link CustomerRate} of `POST /orders`. */
export const CUSTOMER_RATE = Symbol('CUSTOMER_RATE');

/** `ORDERS_CUSTOMER_BURST` and `ORDERS_CUSTOMER_RATE_PER_S`. */
export interface CustomerRate {
  burst: number;
  perSecond: number;
}

/**
 * A fair share of `POST /orders` per customer (the token's subject), a token bucket each: a
 * customer over its rate gets 429 `ORDERS.RATE_LIMITED` with `Retry-After`, and nothing was done,
 * while every other customer is served. Counted on every request, with or without an
 * `Idempotency-Key`: the key quota bounds stored keys, not orders, so without a key one customer
 * could otherwise place orders as fast as the server takes them and buy out a scarce SKU. Runs
 * after authentication (a method guard runs after the global `AuthGuard`) and before any work.
 */
@Injectable()
export class CustomerRateGuard implements CanActivate {
  private readonly buckets: TokenBuckets;

  constructor(@Inject(CUSTOMER_RATE) private readonly rate: CustomerRate) {
    this.buckets = new TokenBuckets({ capacity: rate.burst, refillPerSecond: rate.perSecond });
  }

  canActivate(context: ExecutionContext): boolean {
    const principal = context.switchToHttp().getRequest<Record<string, unknown>>()[PRINCIPAL_PROPERTY] as Principal;
    const take = this.buckets.take(principal.subject);
    if (take.taken) return true;
    throw new ProblemException(
      HttpStatus.TOO_MANY_REQUESTS,
      OrdersErrorCodes.RATE_LIMITED,
      `More orders than ${this.rate.perSecond} per second (bursts of ${this.rate.burst}) from this customer; nothing was done, send it again after Retry-After`,
      [],
      {},
      take.retryAfterSeconds,
    );
  }
}
