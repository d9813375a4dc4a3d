import type { LoyaltyCommand } from './loyalty-command.entity.js';

export type CallOutcome =
  | { kind: 'accepted'; status: number }
  | { kind: 'rejected'; status: number; error: string }
  | { kind: 'retry'; error: string };

/**
 * One `POST /accruals` with the command id as `Idempotency-Key`. Classifies the answer: 2xx is
 * done; 4xx will never succeed (park it for a human); 5xx, timeouts and network errors may.
 */
export async function sendAccrual(baseUrl: string, command: LoyaltyCommand, timeoutMs: number): Promise<CallOutcome> {
  try {
    const response = await fetch(new URL('/accruals', baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': command.id },
      body: JSON.stringify({ customerId: command.customerId, orderId: command.orderId, points: command.points }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (response.ok) return { kind: 'accepted', status: response.status };
    if (response.status >= 400 && response.status < 500) {
      return { kind: 'rejected', status: response.status, error: `HTTP ${response.status}: ${text.slice(0, 500)}` };
    }
    return { kind: 'retry', error: `HTTP ${response.status}: ${text.slice(0, 500)}` };
  } catch (error) {
    return { kind: 'retry', error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}
