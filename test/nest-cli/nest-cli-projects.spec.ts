import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';

const root = new URL('../../', import.meta.url);
const cli = JSON.parse(readFileSync(new URL('nest-cli.json', root), 'utf8')) as {
  projects: Record<string, { type: string; root: string }>;
};
const folders = (path: string) =>
  readdirSync(new URL(path, root), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${path}${entry.name}`)
    .sort();

describe('nest-cli.json', () => {
  it('when a library or an app is added to the workspace, then nest-cli.json lists it (nest build and generate find it)', () => {
    const listed = (type: string) =>
      Object.values(cli.projects)
        .filter((project) => project.type === type)
        .map((project) => project.root)
        .sort();
    expect(listed('library')).toEqual(folders('libs/'));
    expect(listed('application')).toEqual(folders('apps/'));
  });
});
