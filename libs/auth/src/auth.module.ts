import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { AuthConfig } from './auth.config.js';
import { AuthGuard } from './auth.guard.js';
import { AUTH_CONFIG, TokenVerifier } from './token-verifier.js';

/**
 * Authentication for an app: registers {@link AuthGuard} globally, so a route is protected unless
 * it says `@Public()`; a route added tomorrow is protected without anyone remembering to.
 */
@Global()
@Module({})
export class AuthModule {
  static forRoot(config: AuthConfig): DynamicModule {
    return {
      module: AuthModule,
      providers: [{ provide: AUTH_CONFIG, useValue: config }, TokenVerifier, { provide: APP_GUARD, useClass: AuthGuard }],
      exports: [TokenVerifier],
    };
  }
}
