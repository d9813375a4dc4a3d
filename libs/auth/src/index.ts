export { authEnv, authLaptopSettings, DEV_ISSUER_NAME, type AuthConfig } from './auth.config.js';
export { AuthErrorCodes } from './auth.error-codes.js';
export { ADMIN_SCOPE, type Principal, type PrincipalKind, principalOf } from './principal.js';
export { TokenVerifier, TokenRejectedError } from './token-verifier.js';
export { Public, RequireScopes, CurrentPrincipal, PRINCIPAL_PROPERTY } from './auth.decorators.js';
export { AuthGuard } from './auth.guard.js';
export { AuthModule } from './auth.module.js';
export { clientCredentialsEnv, type ClientCredentialsConfig } from './client-credentials.config.js';
export { ClientCredentialsTokenSource } from './client-credentials.token-source.js';
