import { type CanActivate, type ExecutionContext, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProblemException } from '@libs/http';
import { AuthErrorCodes } from './auth.error-codes.js';
import { IS_PUBLIC, PRINCIPAL_PROPERTY, REQUIRED_SCOPES } from './auth.decorators.js';
import { TokenRejectedError, TokenVerifier } from './token-verifier.js';

const BEARER = /^Bearer ([A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_.+/=]*)$/;

/**
 * The global guard: every HTTP route needs a valid bearer token unless marked `@Public()`, and the
 * scopes of `@RequireScopes()`. Refusals are problem details: 401 `AUTH.UNAUTHENTICATED` with a
 * `WWW-Authenticate: Bearer` challenge (RFC 6750), 403 `AUTH.FORBIDDEN`. Kafka handlers (the
 * hybrid apps inherit the global guards) are not HTTP requests: the inbox's envelope checks guard
 * them, not this.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(TokenVerifier) private readonly verifier: TokenVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & Record<string, unknown>>();
    const response = context.switchToHttp().getResponse<FastifyReply>();
    const header = request.headers.authorization;
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token) {
      response.header('WWW-Authenticate', 'Bearer');
      throw unauthenticated(header ? 'the Authorization header is not "Bearer <JWT>"' : 'a bearer token is required');
    }
    let principal;
    try {
      principal = await this.verifier.verify(token);
    } catch (error) {
      if (!(error instanceof TokenRejectedError)) throw error;
      response.header('WWW-Authenticate', `Bearer error="invalid_token", error_description="${error.message}"`);
      throw unauthenticated(error.message);
    }
    request[PRINCIPAL_PROPERTY] = principal;
    const required = this.reflector.getAllAndOverride<string[] | undefined>(REQUIRED_SCOPES, targets) ?? [];
    const missing = required.filter((scope) => !principal.scopes.includes(scope));
    if (missing.length > 0) {
      response.header('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${required.join(' ')}"`);
      throw new ProblemException(HttpStatus.FORBIDDEN, AuthErrorCodes.FORBIDDEN, `this operation needs the scope ${missing.join(', ')}`);
    }
    return true;
  }
}

function unauthenticated(detail: string): ProblemException {
  return new ProblemException(HttpStatus.UNAUTHORIZED, AuthErrorCodes.UNAUTHENTICATED, detail);
}
