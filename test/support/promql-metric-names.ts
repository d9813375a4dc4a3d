/** PromQL words that look like identifiers but name no metric. */
const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'bool',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression reads: identifiers left once strings, label matchers,
 * grouping clauses, range and subquery selectors, function calls and keywords are removed.
 * Good enough for the expressions this repository writes; not a PromQL parser.
 */
export function metricNamesIn(expression: string): string[] {
  const stripped = expression
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  // Not preceded by a digit or dot: `5m` (offset) and `1e3` are numbers, not names.
  const names = [...stripped.matchAll(/(?<![\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
    .filter(([, name, call]) => !call && !KEYWORDS.has(name.toLowerCase()))
    .map(([, name]) => name);
  return [...new Set(names)];
}

/**
 * Every sample name a Prometheus text exposition can contain, from its `# TYPE` lines: a family
 * is listed even before its first labelled sample exists (a dead-letter counter that never
 * counted), and a histogram or summary also yields its `_bucket`, `_sum` and `_count` series.
 */
export function exportedMetricNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}
