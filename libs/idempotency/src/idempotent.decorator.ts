import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IDEMPOTENT_OPTIONS, type IdempotentOptions } from './idempotent.options.js';

/**
 * Makes a POST handler idempotent under the `Idempotency-Key` header: same key and same body
 * replays the stored response (`Idempotent-Replayed: true`); same key and another body is 422.
 */
export function Idempotent(options: IdempotentOptions): MethodDecorator {
  return applyDecorators(SetMetadata(IDEMPOTENT_OPTIONS, options), UseInterceptors(IdempotencyInterceptor));
}
