import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { DispatcherFailpoints } from '@libs/commands';
import { InboxFailpoints } from '@libs/inbox';
import { RelayFailpoints } from '@libs/outbox';
import { InventoryFailpoints } from '@apps/inventory';
import { LoyaltyFailpoints } from '@apps/loyalty';
import { OrdersFailpoints } from '@apps/orders';

// The crash-window table of docs/guarantees.md is the ledger of the windows; each failpoint is declared by the
// code that owns its window (a library or an app). A window declared but missing from the table, or
// a table row naming a failpoint nobody declares, would make the ledger lie.
const owners = { RelayFailpoints, InboxFailpoints, DispatcherFailpoints, OrdersFailpoints, InventoryFailpoints, LoyaltyFailpoints };
const declared = Object.values(owners).flatMap((owner) => Object.values(owner));

/** The failpoint column (`` `name` ``) of each row of the crash-window table on `page`. */
function tableFailpoints(page: string): string[] {
  const start = page.indexOf('| crash window | failpoint |');
  const rows = page.slice(start).split('\n').slice(2);
  const table = rows.slice(
    0,
    rows.findIndex((row) => !row.startsWith('|')),
  );
  return table.map((row) => /^\|[^|]*\|\s*`([^`]+)`/.exec(row)?.[1] ?? `unreadable row: ${row}`);
}

describe('crash windows', () => {
  const guarantees = readFileSync(new URL('../docs/guarantees.md', import.meta.url), 'utf8');

  it('when the crash-window table of docs/guarantees.md is read, then it names exactly the failpoints their owners declare', () => {
    const named = tableFailpoints(guarantees);
    expect(named.length).toBeGreaterThanOrEqual(11);
    expect([...new Set(named)].sort()).toEqual([...declared].sort());
  });

  it('when a row has no failpoint in backticks, then the parser reports the row instead of skipping it', () => {
    const table = [
      '| crash window | failpoint | what | test |',
      '|---|---|---|---|',
      '| a | `relay.x` | b | c |',
      '| d | e | f | g |',
      '',
      'after',
    ].join('\n');
    expect(tableFailpoints(table)).toEqual(['relay.x', 'unreadable row: | d | e | f | g |']);
  });
});
