/** A reference from a Markdown page to a file of the repository, with the line it is on. */
export interface MarkdownReference {
  line: number;
  /** The target as written: a relative link (`../libs/x.ts#anchor`) or a code span (`libs/x.ts`). */
  target: string;
  kind: 'link' | 'code-path';
}

/** Folders a code span must start with to be read as a path of this repository. */
const REPO_FOLDERS = ['apps', 'libs', 'test', 'docs', 'scripts', 'infra', 'bench', 'tools'];
const CODE_PATH = new RegExp(`^(?:${REPO_FOLDERS.join('|')})/[A-Za-z0-9_.\\-/]+$`);

/**
 * Relative links (`[text](target)`, a bare `#anchor` included; not `http:` or `mailto:`) and code spans that
 * name a repository path (`` `test/inbox/redelivery.e2e-spec.ts` ``) in `markdown`. Fenced code
 * blocks are skipped: their contents are examples, not references.
 */
export function markdownReferences(markdown: string): MarkdownReference[] {
  const references: MarkdownReference[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, index) => {
    if (/^\s*```/.test(text)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      references.push({ line: index + 1, target, kind: 'link' });
    }
    for (const [, span] of text.matchAll(/`([^`\s]+)`/g)) {
      if (CODE_PATH.test(span)) references.push({ line: index + 1, target: span, kind: 'code-path' });
    }
  });
  return references;
}

/**
 * The anchors GitHub gives the headings of `markdown`: lower case, punctuation other than `-` and
 * `_` dropped, spaces to `-`, and `-1`, `-2` ... appended to repeats.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const text of markdown.split('\n')) {
    if (/^\s*```/.test(text)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!heading) continue;
    const slug = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
