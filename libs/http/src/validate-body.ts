import type { ExecutionContext, ValidationPipe } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import type { FastifyRequest } from 'fastify';
import { strictValidationPipe } from './validation.pipe.js';

let pipe: ValidationPipe | undefined;

/**
 * Validates the handler's `@Body()` parameters now, with the app's validation pipe, and throws
 * its 400 when one is invalid. Nest runs pipes inside `next.handle()`, after every interceptor's
 * "before" code; an interceptor that opens a transaction or takes a lock first (the idempotency
 * interceptor) calls this so a malformed body is refused without touching the database (issue
 * 16). The handler's own pipe then meets the same body object and takes the instance validated
 * here (see `BoundsFirstValidationPipe`): each body is validated once per request.
 */
export async function validateRequestBody(context: ExecutionContext): Promise<void> {
  pipe ??= strictValidationPipe();
  const controller = context.getClass();
  const method = context.getHandler().name;
  const parameters = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<
    string,
    { index: number; data?: string }
  >;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype as object, method) ?? []) as (new () => unknown)[];
  const body = context.switchToHttp().getRequest<FastifyRequest>().body as Record<string, unknown> | undefined;
  for (const [key, { index, data }] of Object.entries(parameters)) {
    // Nest keys a route argument `<RouteParamtypes>:<index>`.
    if (key.split(':')[0] !== String(RouteParamtypes.BODY)) continue;
    await pipe.transform(data ? body?.[data] : body, { type: 'body', metatype: types[index], data });
  }
}
