import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath, type HeaderObject, type ResponseObject } from '@nestjs/swagger';
import { PROBLEM_JSON, ProblemDetails } from './problem-details.js';

/** Default descriptions of the error statuses the apps answer; an endpoint may override one. */
const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request: a field, parameter or header is missing or invalid (`fields` names each)',
  401:
    'AUTH.UNAUTHENTICATED: no bearer token, or one not valid here (expired, unsigned, another issuer or audience, ' +
    'an unknown key); `WWW-Authenticate` says which',
  403: 'AUTH.FORBIDDEN: the token is valid but may not do this (a scope it lacks is named in `detail` and `WWW-Authenticate`)',
  404: 'No such resource (`code` says which)',
  409: 'The resource is in a state that forbids this change (`code` says which)',
  413: 'Body larger than HTTP_BODY_LIMIT_BYTES (`REQUEST.BODY_TOO_LARGE`)',
  415: 'REQUEST.UNSUPPORTED_MEDIA_TYPE: a body that is not `application/json` (`fields` names `Content-Type`)',
  422: 'Understood but refused (`code` says why)',
  429: 'Too many requests from this caller (`code` says which quota); nothing was done, retry after `Retry-After` seconds',
  503:
    'REQUEST.UNAVAILABLE: no database connection within DATABASE_CONNECT_TIMEOUT_MS (overload, or the database away); ' +
    'nothing was done, retry after `Retry-After` seconds with the same request',
};

const RETRY_AFTER: HeaderObject = {
  description: 'Seconds to wait before sending the request again',
  schema: { type: 'integer', minimum: 0 },
};
const CHALLENGE: HeaderObject = {
  description: 'The Bearer challenge (RFC 6750, section 3): `error` and `error_description` or `scope` say why',
  schema: { type: 'string', example: 'Bearer error="invalid_token", error_description="token expired"' },
};

/** The headers each error status carries, whoever documents it: the guard's challenge, the back-off hint. */
const HEADERS: Record<number, Record<string, HeaderObject>> = {
  401: { 'WWW-Authenticate': CHALLENGE },
  403: { 'WWW-Authenticate': CHALLENGE },
  429: { 'Retry-After': RETRY_AFTER },
  503: { 'Retry-After': RETRY_AFTER },
};

/**
 * An error answer as the OpenAPI document lists it: the shared {@link ProblemDetails} body as
 * `application/problem+json`, the status' headers, and `description` (default: the status' own).
 */
export function problemResponse(status: number, description = DESCRIPTIONS[status] ?? 'Error'): ResponseObject {
  return {
    description,
    ...(HEADERS[status] ? { headers: HEADERS[status] } : {}),
    content: { [PROBLEM_JSON]: { schema: { $ref: getSchemaPath(ProblemDetails) } } },
  };
}

/**
 * Documents error answers of an endpoint with the shared {@link ProblemDetails} body as
 * `application/problem+json`: `@ApiErrors(400, 404)` or `@ApiErrors({ 409: 'ORDERS.NOT_CANCELLABLE: ...' })`.
 * The answers of the layers every route shares (401, 415, 429, 503) are added to the document by
 * `buildApiDocument`; an endpoint lists here only what its own code answers.
 */
export function ApiErrors(...statuses: (number | Record<number, string>)[]): MethodDecorator & ClassDecorator {
  const entries = statuses.flatMap((status): [number, string | undefined][] =>
    typeof status === 'number' ? [[status, undefined]] : Object.entries(status).map(([s, d]) => [Number(s), d]),
  );
  return applyDecorators(
    ApiExtraModels(ProblemDetails),
    ...entries.map(([status, description]) => ApiResponse({ status, ...problemResponse(status, description) })),
  );
}
