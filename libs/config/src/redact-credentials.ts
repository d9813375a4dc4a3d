/**
 * Masks the password of every `scheme://user:password@host` in `text`, parseable or not, so an
 * error message can quote a connection string. Greedy up to the last `@`, because a password may
 * itself contain `@`: masking too much of a broken URL is better than printing part of a secret.
 */
export function redactCredentials(text: string): string {
  return text.replace(/(\/\/[^/\s:@]*:)\S*@/g, '$1***@');
}
