// Every page (or part of a page) generated from the code, and how to render it: what
// `npm run docs:reference` writes and test/docs-reference.spec.ts compares with the committed copy.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot, services, withKafkaAclTable } from '@tools/local-stack';
import { ASYNCAPI_PATH, renderAsyncApiDocument } from '../asyncapi-document.js';
import { ENV_EXAMPLE_PATH, renderEnvExampleFile } from '../env-example-file.js';
import { renderBenchSizes } from './bench-sizes.js';
import { withGeneratedSection } from './generated-section.js';
import { libraryOptions, renderLibraryOptions } from './library-options.js';
import { renderOtherVariables } from './other-variables.js';
import { renderTargetsSection } from './performance-targets.js';
import { renderThroughputPerReplica } from './throughput-per-replica.js';
import { renderConfigurationTable, renderFailpointsTable, renderTablesTable, renderTopicsTable } from './service-reference.js';

/** A generated page: its path from the repository root, and its text rendered from the committed one. */
export interface ReferencePage {
  readonly path: string;
  render(committed: string): Promise<string>;
}

/** `page` with each named section replaced by its body. */
function withSections(path: string, page: string, sections: Record<string, string>): string {
  return Object.entries(sections).reduce((text, [name, body]) => withGeneratedSection(text, path, name, body), page);
}

export function referencePages(): ReferencePage[] {
  const servicePages = services.map((service): ReferencePage => ({
    path: `docs/services/${service.name}.md`,
    render: async (committed) =>
      withSections(`docs/services/${service.name}.md`, committed, {
        topics: renderTopicsTable(service),
        tables: await renderTablesTable(service),
        configuration: renderConfigurationTable(service),
        failpoints: renderFailpointsTable(service),
      }),
  }));
  return [
    ...servicePages,
    {
      path: 'docs/configuration.md',
      render: async (committed) =>
        withSections('docs/configuration.md', committed, {
          ...Object.fromEntries(libraryOptions.map((options) => [`options-${options.id}`, renderLibraryOptions(options)])),
          'other-variables': renderOtherVariables(),
        }),
    },
    { path: 'docs/security.md', render: async (committed) => withKafkaAclTable(committed) },
    {
      path: 'docs/performance.md',
      render: async (committed) =>
        withGeneratedSection(committed, 'docs/performance.md', 'targets', renderTargetsSection('docs/performance.md')),
    },
    {
      path: 'bench/README.md',
      render: async (committed) => withGeneratedSection(committed, 'bench/README.md', 'sizes', renderBenchSizes()),
    },
    {
      path: 'docs/scaling.md',
      render: async (committed) =>
        withGeneratedSection(committed, 'docs/scaling.md', 'throughput-per-replica', renderThroughputPerReplica()),
    },
    { path: ASYNCAPI_PATH, render: async () => renderAsyncApiDocument() },
    { path: ENV_EXAMPLE_PATH, render: async () => renderEnvExampleFile() },
  ];
}

/** The committed text of a page. */
export function committedPage(path: string): string {
  return readFileSync(join(findRepoRoot(), path), 'utf8');
}
