import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminToken, customerToken, type ServiceProcess, TestServices } from '@test/fixtures';
import { requestJson, uniqueSku } from '@tools/test-support';

/** The stock admin API of the inventory service, as a real process on a test database. */
describe('inventory stock over HTTP (real process, real Postgres)', () => {
  const services = new TestServices();
  let inventory: ServiceProcess;
  const sku = () => uniqueSku('SKU-STOCK');
  const put = async (path: string, body: unknown, token?: string) =>
    requestJson('PUT', `${inventory.baseUrl}/stock/${path}`, { body, token: token ?? (await adminToken()) });
  const get = async (path: string) => requestJson('GET', `${inventory.baseUrl}/stock/${path}`, { token: await adminToken() });

  beforeAll(async () => {
    inventory = await services.start({
      service: 'inventory',
      database: await services.createDatabase('inventory_stock'),
      // Nothing here reaches loyalty or publishes: no relay, and a loyalty URL nobody listens on.
      env: { LOYALTY_BASE_URL: 'http://127.0.0.1:9', OUTBOX_RELAY_ENABLED: 'false' },
    });
  });

  afterAll(() => services.tearDown());

  it('when stock is set for a new SKU, then GET returns it with nothing reserved; setting it again replaces the available units', async () => {
    const id = sku();
    const created = await put(id, { available: 12 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ sku: id, available: 12, reserved: 0 });

    expect((await put(id, { available: 3 })).body).toMatchObject({ available: 3, reserved: 0 });
    const read = await get(id);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ sku: id, available: 3, reserved: 0 });
  });

  it('when a token without the admin scope sets stock, then 403 AUTH.FORBIDDEN and the stock is unchanged', async () => {
    const id = sku();
    expect((await put(id, { available: 5 })).status).toBe(200);

    const refused = await put(id, { available: 1_000_000 }, await customerToken('stock-curious', 'inventory'));

    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body).toMatchObject({ status: 403, code: 'AUTH.FORBIDDEN' });
    expect((await get(id)).body).toMatchObject({ available: 5 });
  });

  it.each([
    ['negative', { available: -1 }],
    ['not an integer', { available: 1.5 }],
    ['a string', { available: '7' }],
    ['missing', {}],
  ])('when available is %s, then 400 names the field and nothing changes', async (_case, body) => {
    const id = sku();
    const response = await put(id, body);
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual(['available']);
    expect((await get(id)).status).toBe(404);
  });

  it('when the body has an unknown field, then 400 names it', async () => {
    const response = await put(sku(), { available: 1, reserved: 5 });
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual(['reserved']);
  });

  it('when the SKU is unknown, then GET answers 404 with the stable code', async () => {
    const response = await get(sku());
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'INVENTORY.UNKNOWN_SKU' });
  });

  it.each([
    ['lower case', 'sku-lower'],
    ['a space', 'SKU%20ONE'],
    ['a leading dash', '-SKU'],
    ['65 characters', 'S'.repeat(65)],
  ])('when the SKU in the path has %s, then GET and PUT answer 400 naming sku', async (_case, path) => {
    for (const response of [await get(path), await put(path, { available: 1 })]) {
      expect(response.status).toBe(400);
      expect(response.body.fields).toEqual(['sku']);
    }
  });
});
