/**
 * Who a request acts for, as its verified token says:
 * - `service`: another system with a client-credentials token (`client_id` equal to `sub`, RFC 9068);
 * - `admin`: an operator, a token with the {@link ADMIN_SCOPE};
 * - `customer`: anyone else; the subject is the customer id.
 */
export type PrincipalKind = 'customer' | 'service' | 'admin';

/** The scope of an operator's token (may set stock, for example). */
export const ADMIN_SCOPE = 'admin';

/** The caller of a request, from its verified bearer token. Handlers take it with `@CurrentPrincipal()`. */
export interface Principal {
  /** The token's `sub`: a customer id, an operator, or a client id for a service. */
  readonly subject: string;
  /** The token's `scope` claim, split on spaces. */
  readonly scopes: readonly string[];
  readonly kind: PrincipalKind;
}

/** The principal of a verified token's claims. */
export function principalOf(claims: { sub?: string; scope?: unknown; client_id?: unknown }): Principal {
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [];
  const subject = claims.sub ?? '';
  const kind: PrincipalKind =
    typeof claims.client_id === 'string' && claims.client_id === subject ? 'service' : scopes.includes(ADMIN_SCOPE) ? 'admin' : 'customer';
  return { subject, scopes, kind };
}
