import { describe, expect, it } from '@jest/globals';
import { REFERENCE_COMMAND, withGeneratedSection } from '../scripts/reference/generated-section.js';
import { committedPage, referencePages } from '../scripts/reference/reference-pages.js';

// The reference pages state what the code declares (topics, tables, variables, failpoints, ACLs,
// the AsyncAPI document, .env.example); they are rendered from it, never edited by hand.
describe('reference pages generated from the code', () => {
  it(`when a declaration changes, then every generated page is current (run \`${REFERENCE_COMMAND}\`)`, async () => {
    const stale: string[] = [];
    for (const page of referencePages()) {
      const committed = committedPage(page.path);
      if ((await page.render(committed)) !== committed) stale.push(`${page.path} is stale: run \`${REFERENCE_COMMAND}\``);
    }
    expect(stale).toEqual([]);
  });

  it('when a page lost its markers, then rendering it fails naming the page and the section', () => {
    expect(() => withGeneratedSection('# orders\n', 'docs/services/orders.md', 'topics', '|a|')).toThrow(
      /docs\/services\/orders\.md has no <!-- generated:topics/,
    );
  });

  it('when a section is rendered, then only the text between its markers changes', () => {
    const page = `a\n<!-- generated:x (${REFERENCE_COMMAND}; do not edit) -->\nold\n<!-- /generated -->\nb\n`;
    expect(withGeneratedSection(page, 'p.md', 'x', 'new')).toBe(
      `a\n<!-- generated:x (${REFERENCE_COMMAND}; do not edit) -->\nnew\n<!-- /generated -->\nb\n`,
    );
  });
});
