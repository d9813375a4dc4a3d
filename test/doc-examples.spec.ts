import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { answerMismatch, Bindings, statedStatus } from './support/answer-shape.js';
import { docExamples, unstatedExamples } from './support/doc-examples.js';
import { documentationPages } from './support/documentation-pages.js';

// The examples of the docs run in test/e2e/docs-examples.e2e-spec.ts; this file checks, without
// I/O, that every curl on a page is in a console block with the answer it gets, and that the
// comparison it relies on can fail.
const root = fileURLToPath(new URL('..', import.meta.url));
const pages = documentationPages(root);

describe('examples in README.md and docs/**/*.md', () => {
  it('when a page shows a curl, then it is in a console block followed by its answer (so the docs test runs and compares it)', () => {
    const problems = pages.flatMap((page) => unstatedExamples(page, readFileSync(join(root, page), 'utf8')));
    expect(problems).toEqual([]);
  });

  it('when a curl is in a bash block, inline, or shown without an answer, then each is reported with its line', () => {
    const page = [
      '```bash',
      'TOKEN=$(npm run -s token -- --sub c1)',
      'curl -s localhost:3000/orders',
      '```',
      'Run `curl -s localhost:3002/balance` to see it.',
      '```console',
      '$ curl -s localhost:3001/stock/SKU-APPLE',
      '$ curl -s localhost:3001/stock/SKU-BANANA',
      '{"sku":"SKU-BANANA",...}',
      '```',
    ].join('\n');
    expect(unstatedExamples('docs/x.md', page)).toEqual([
      'docs/x.md:3: curl in a ```bash block, which is never run: use a console block with its answer',
      'docs/x.md:5: curl in an inline code span: put it in a console block with its answer',
      'docs/x.md:7: curl without the answer it gets on the lines after it',
    ]);
  });

  it('when a console block is read, then commands (with continuation lines) and their output are paired, and "(abridged)" after it is noticed', () => {
    const [example] = docExamples(
      'README.md',
      ['```console', '$ curl -s a \\', '    -d b', '{"x":1}', '$ echo', '```', '', '(abridged) more'].join('\n'),
    );
    expect(example).toEqual({
      page: 'README.md',
      line: 1,
      abridged: true,
      commands: [
        { page: 'README.md', line: 2, command: 'curl -s a \\\n    -d b', expected: ['{"x":1}'] },
        { page: 'README.md', line: 5, command: 'echo', expected: [] },
      ],
    });
  });

  describe('an answer compared by shape', () => {
    const id = '0b9f8f21-39d9-4c39-8795-0bab74c7a039';
    const other = '11111111-2222-4333-8444-555555555555';

    it('when fields match, "..." stands for more fields and a shown UUID binds the run\'s, then later mentions must be that same id', () => {
      const bindings = new Bindings();
      expect(
        answerMismatch([`{"id":"${id}","status":"PENDING",...}`], `{"id":"${other}","status":"PENDING","totalCents":2}`, bindings),
      ).toBeUndefined();
      expect(bindings.apply(`curl localhost:3000/orders/${id}`)).toBe(`curl localhost:3000/orders/${other}`);
      expect(answerMismatch(['{"id":"0b9f8f21-...",...}'], `{"id":"${other}"}`, bindings)).toBeUndefined();
      expect(answerMismatch(['{"id":"0b9f8f21-...",...}'], `{"id":"${id}"}`, bindings)).toContain(`want ${other}`);
    });

    it('when a value, a field or an element differs, then the mismatch names its path', () => {
      const bindings = new Bindings();
      expect(answerMismatch(['{"status":"RESERVED",...}'], '{"status":"PENDING"}', bindings)).toBe(
        '$.status: want "RESERVED", got "PENDING"',
      );
      expect(answerMismatch(['{"available":98}'], '{"available":98,"reserved":2}', bindings)).toContain('fields not shown on the page');
      expect(answerMismatch(['{"items":[{"points":21,...}],...}'], '{"items":[]}', bindings)).toBe('$.items: want 1 element(s), got 0');
      expect(answerMismatch(['{"a":1}'], 'not json', bindings)).toContain('want JSON');
    });

    it('when the output is not JSON, then the lines shown must be printed in order; an abridged sample frees words holding digits', () => {
      const printed = '> npm banner\n[inventory:seed] inventory: SKU-APPLE=100\nnext';
      expect(answerMismatch(['[inventory:seed] inventory: SKU-APPLE=100'], printed, new Bindings())).toBeUndefined();
      expect(answerMismatch(['[inventory:seed] inventory: SKU-APPLE=99'], printed, new Bindings())).toContain('line not printed');
      expect(answerMismatch(['[  0.6s] 3. Place an order'], '[ 12.1s] 7. Place an order', new Bindings(), true)).toBeUndefined();
      expect(answerMismatch(['[  0.6s] 3. Place an order'], '[ 12.1s] 7. Place an answer', new Bindings(), true)).toContain(
        'line not printed',
      );
    });

    it('when the answer is a problem document or a printed status code, then that is the status meant; otherwise a 2xx', () => {
      expect(statedStatus(['401'])).toBe(401);
      expect(statedStatus(['{"type":"about:blank","title":"Bad Request","status":400,...}'])).toBe(400);
      expect(statedStatus(['{"id":"x","status":"PENDING",...}'])).toBe('2xx');
    });
  });
});
