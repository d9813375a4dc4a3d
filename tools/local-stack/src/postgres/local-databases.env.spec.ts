import { describe, expect, it } from '@jest/globals';
import { localDatabaseName } from './local-databases.env.js';

describe('localDatabaseName', () => {
  it('when nothing is set, then each app gets the database of its own name', () => {
    expect(['orders', 'inventory', 'loyalty'].map((app) => localDatabaseName(app as 'orders', {}))).toEqual([
      'orders',
      'inventory',
      'loyalty',
    ]);
  });

  it("when an app's variable is set, then that app alone gets it, whatever a shared DATABASE_NAME says", () => {
    const source = { DATABASE_NAME: 'shared', ORDERS_DATABASE_NAME: 'orders_b' };
    expect(localDatabaseName('orders', source)).toBe('orders_b');
    expect(localDatabaseName('inventory', source)).toBe('inventory');
  });
});
