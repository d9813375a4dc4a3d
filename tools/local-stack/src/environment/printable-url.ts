/**
 * `url` as it may be printed: its password (a `DATABASE_URL` may carry one) replaced by `***`.
 * Text that does not parse as a URL is not printed at all: it may hold a password in any shape.
 */
export function printableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}
