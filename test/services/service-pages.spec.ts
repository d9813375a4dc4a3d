import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { InventoryFailpoints, inventoryConsumes, inventoryEnv } from '@apps/inventory';
import { LoyaltyFailpoints, loyaltyEnv } from '@apps/loyalty';
import { OrdersFailpoints, ordersConsumes, ordersEnv } from '@apps/orders';
import { consumedTopics } from '@app/inbox';

// docs/services/<app>.md is the page a newcomer reads first about one service. Cheap checks keep it
// honest: every variable of the app's schema, every failpoint it declares and every topic it
// consumes is named on its page (the links are checked by test/doc-links.spec.ts).
const pages = [
  { app: 'orders', env: ordersEnv, failpoints: OrdersFailpoints, consumes: consumedTopics(ordersConsumes) },
  { app: 'inventory', env: inventoryEnv, failpoints: InventoryFailpoints, consumes: consumedTopics(inventoryConsumes) },
  { app: 'loyalty', env: loyaltyEnv, failpoints: LoyaltyFailpoints, consumes: [] },
];

const pageOf = (app: string) => readFileSync(new URL(`../../docs/services/${app}.md`, import.meta.url), 'utf8');
const unnamed = (page: string, names: readonly string[]) => names.filter((name) => !page.includes(`\`${name}\``));

describe('docs/services/<app>.md', () => {
  for (const { app, env, failpoints, consumes } of pages) {
    it(`when ${app}'s schema has a variable, then its page names it`, () => {
      expect(Object.keys(env).length).toBeGreaterThan(10);
      expect(unnamed(pageOf(app), Object.keys(env))).toEqual([]);
    });

    it(`when ${app} declares a failpoint or consumes a topic, then its page names it`, () => {
      expect(unnamed(pageOf(app), [...Object.values(failpoints), ...consumes])).toEqual([]);
    });

    it(`when ${app}'s page is read, then it links its config schema, its failpoints and .env.example`, () => {
      const page = pageOf(app);
      for (const file of [`apps/${app}/src/${app}.config.ts`, `apps/${app}/src/${app}.failpoints.ts`, '.env.example']) {
        expect(page).toContain(`](../../${file})`);
      }
    });
  }

  it('when a variable is missing from a page, then the check names it', () => {
    expect(unnamed('`A_MS` and B_MS', ['A_MS', 'B_MS'])).toEqual(['B_MS']);
  });
});
