/** The command that rewrites every generated section (and says so in each one's start marker). */
export const REFERENCE_COMMAND = 'npm run docs:reference';

const END = '<!-- /generated -->';

/**
 * `page` with the text between `<!-- generated:<name> ... -->` and the next `<!-- /generated -->`
 * replaced by `body`. Throws, naming the page, when the section is missing: a page loses a table
 * only by someone removing its markers on purpose.
 */
export function withGeneratedSection(page: string, path: string, name: string, body: string): string {
  const startMarker = `<!-- generated:${name} (${REFERENCE_COMMAND}; do not edit) -->`;
  const start = page.indexOf(startMarker);
  const end = start < 0 ? -1 : page.indexOf(END, start);
  if (start < 0 || end < 0) throw new Error(`${path} has no ${startMarker} ... ${END} section`);
  return `${page.slice(0, start + startMarker.length)}\n${body}\n${page.slice(end)}`;
}
