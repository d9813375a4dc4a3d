import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '@libs/http';
import { IDEMPOTENCY_KEY_FORMAT, IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IDEMPOTENT_OPTIONS, type IdempotentOptions } from './idempotent.options.js';

/**
 * Makes a POST handler idempotent under the `Idempotency-Key` header: same key and same body
 * replays the stored response (`Idempotent-Replayed: true`); same key and another body is 422.
 * Also documents the header and its error answers in the app's OpenAPI document, so the contract
 * and its description cannot part.
 */
export function Idempotent(options: IdempotentOptions): MethodDecorator {
  return applyDecorators(
    SetMetadata(IDEMPOTENT_OPTIONS, options),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: options.required ?? false,
      description:
        'Makes a retry safe: a repeat with the same key and body returns the stored response with ' +
        '`Idempotent-Replayed: true` and changes nothing; the same key with another body is 422.' +
        (options.required ? ' Required.' : ' Optional; without it every request is a new one.'),
      schema: { type: 'string', pattern: IDEMPOTENCY_KEY_FORMAT.source, example: 'order-2026-12-01-0001' },
    }),
    ApiErrors(
      {
        400:
          `Malformed body (REQUEST.VALIDATION_FAILED), or an Idempotency-Key that is ` +
          `${options.required ? 'missing (IDEMPOTENCY.KEY_REQUIRED) or ' : ''}malformed (IDEMPOTENCY.KEY_MALFORMED); \`fields\` names each`,
      },
      { 422: 'IDEMPOTENCY.KEY_REUSED: the Idempotency-Key was already used with a different body' },
    ),
  );
}
