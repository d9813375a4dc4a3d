import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { services } from '@tools/local-stack';

// docs/services/<app>.md is the page a newcomer reads first about one service. Its topics, tables,
// variables and failpoints are generated (test/docs-reference.spec.ts keeps them current); these
// checks keep the page's links to the declarations they come from (the links themselves are checked
// by test/doc-links.spec.ts).
const pageOf = (app: string) => readFileSync(new URL(`../../docs/services/${app}.md`, import.meta.url), 'utf8');

describe('docs/services/<app>.md', () => {
  for (const { name, schema, failpoints, consumes, produces } of services) {
    it(`when ${name}'s page is read, then its generated tables name every variable, failpoint and topic it declares`, () => {
      const page = pageOf(name);
      const names = [...Object.keys(schema), ...Object.values(failpoints), ...consumes, ...produces];
      expect(Object.keys(schema).length).toBeGreaterThan(10);
      expect(names.filter((each) => !page.includes(`\`${each}\``))).toEqual([]);
    });

    it(`when ${name}'s page is read, then it links its config schema, its failpoints and .env.example`, () => {
      const page = pageOf(name);
      for (const file of [`apps/${name}/src/${name}.config.ts`, `apps/${name}/src/${name}.failpoints.ts`, '.env.example']) {
        expect(page).toContain(`](../../${file})`);
      }
    });
  }
});
