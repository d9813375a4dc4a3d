import { describe, expect, it } from '@jest/globals';
import { printableUrl } from './printable-url.js';

describe('printableUrl', () => {
  it('when a database URL carries a password, then the printed form hides it and keeps the rest', () => {
    expect(printableUrl('postgres://app:s3cr%40t@db.internal:5432/orders')).toBe('postgres://app:***@db.internal:5432/orders');
  });

  it('when there is no password, then the URL is printed as it is', () => {
    expect(printableUrl('postgres://postgres@127.0.0.1:5432')).toBe('postgres://postgres@127.0.0.1:5432');
  });

  it('when the text is not a URL, then none of it is printed', () => {
    expect(printableUrl('//app:hunter2@')).toBe('(not a URL)');
  });
});
