// docs/performance.md's table of the project's targets: bench/targets.ts's judgement of the reference runs.
import { posix } from 'node:path';
import { judgeSoak, judgeTargets, targetsTable } from '../../bench/targets.js';
import { REFERENCE_RUN, REFERENCE_SOAK, referenceRun, referenceSoak } from './reference-run.js';

/** The table, under a line naming the runs and their machine; links are relative to `page` (from the repository root), whose own sections say what bounds each figure. */
export function renderTargetsSection(page: string): string {
  const link = (path: string) => posix.relative(posix.dirname(page), path);
  const run = referenceRun();
  const soak = referenceSoak();
  const verdicts = [...judgeTargets(run), judgeSoak(soak)];
  const { machine } = run;
  const met = verdicts.filter((verdict) => verdict.met === true).length;
  return [
    `The ${run.mode} run of ${run.startedAt.slice(0, 10)} ([raw figures](${link(REFERENCE_RUN)})) on ${machine.cpuCount} × ${machine.cpuModel}, ` +
      `autovacuum ${machine.postgresAutovacuum.on ? 'on' : 'off'}, and the soak of ${soak.startedAt.slice(0, 10)} ([raw figures](${link(REFERENCE_SOAK)})): ` +
      `${met} of ${verdicts.length} targets met.`,
    '',
    ...targetsTable(verdicts, ''),
  ].join('\n');
}
