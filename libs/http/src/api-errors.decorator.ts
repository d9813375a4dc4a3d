import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEM_JSON, ProblemDetails } from './problem-details.js';

/** Default descriptions of the error statuses the apps answer; an endpoint may override one. */
const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request: a field, parameter or header is missing or invalid (`fields` names each)',
  404: 'No such resource (`code` says which)',
  409: 'The resource is in a state that forbids this change (`code` says which)',
  413: 'Body larger than HTTP_BODY_LIMIT_BYTES (`REQUEST.BODY_TOO_LARGE`)',
  422: 'Understood but refused (`code` says why)',
};

/**
 * Documents error answers of an endpoint with the shared {@link ProblemDetails} body as
 * `application/problem+json`: `@ApiErrors(400, 404)` or `@ApiErrors({ 409: 'ORDERS.NOT_CANCELLABLE: ...' })`.
 */
export function ApiErrors(...statuses: (number | Record<number, string>)[]): MethodDecorator & ClassDecorator {
  const entries = statuses.flatMap((status) =>
    typeof status === 'number'
      ? [[status, DESCRIPTIONS[status] ?? 'Error'] as const]
      : Object.entries(status).map(([s, d]) => [Number(s), d] as const),
  );
  return applyDecorators(
    ApiExtraModels(ProblemDetails),
    ...entries.map(([status, description]) =>
      ApiResponse({ status, description, content: { [PROBLEM_JSON]: { schema: { $ref: getSchemaPath(ProblemDetails) } } } }),
    ),
  );
}
