import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { ApiErrors, PUBLIC_OPERATION_EXTENSION } from '@libs/http';
import type { Principal } from './principal.js';

export const IS_PUBLIC = Symbol('IS_PUBLIC');
export const REQUIRED_SCOPES = Symbol('REQUIRED_SCOPES');

/** Where the guard leaves the verified caller on the request. */
export const PRINCIPAL_PROPERTY = 'principal';

/**
 * Opens a controller or route to callers without a token. Only health probes and metrics take it:
 * everything else is refused without a valid bearer token, by default. The OpenAPI document then
 * says `security: []` for it (no requirement), and lists no 401.
 */
export const Public = (): ClassDecorator & MethodDecorator =>
  applyDecorators(SetMetadata(IS_PUBLIC, true), ApiExtension(PUBLIC_OPERATION_EXTENSION, true));

/**
 * The route needs every one of `scopes` in the caller's token; a valid token without one is
 * 403 `AUTH.FORBIDDEN` (naming the scope). Also documents that 403 in the app's OpenAPI document,
 * so the guard's rule and its description cannot part.
 */
export const RequireScopes = (...scopes: string[]): ClassDecorator & MethodDecorator =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPES, scopes),
    ApiErrors({ 403: `AUTH.FORBIDDEN: the token lacks the scope ${scopes.join(' and ')} (\`WWW-Authenticate\` names it)` }),
  );

/**
 * The verified caller of the request (see {@link Principal}). A route is authenticated unless
 * `@Public()`, so on every other route this is always set.
 */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<Record<string, unknown>>()[PRINCIPAL_PROPERTY] as Principal | undefined;
  if (!principal) throw new Error('no principal on this request: @CurrentPrincipal() on a @Public() route');
  return principal;
});
