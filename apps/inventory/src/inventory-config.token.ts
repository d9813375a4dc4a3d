/** Injection token of the validated inventory configuration. */
export const INVENTORY_CONFIG = Symbol('INVENTORY_CONFIG');
