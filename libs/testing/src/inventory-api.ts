import { requestJson } from './http-json.js';

/**
 * `PUT <baseUrl>/stock/<sku>`: sets the units of `sku` inventory can reserve, for a test that needs
 * stock before it acts. Throws (with the answer) unless the status is 200; the stock API's own
 * answers are asserted on in its own test.
 */
export async function setStock(baseUrl: string, sku: string, available: number): Promise<void> {
  const response = await requestJson('PUT', `${baseUrl}/stock/${sku}`, { body: { available } });
  if (response.status !== 200) throw new Error(`PUT ${baseUrl}/stock/${sku} answered ${response.status}, not 200: ${response.text}`);
}
