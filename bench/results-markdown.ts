// bench/results/latest.md: the same figures as latest.json, as tables a person reads. Pure.
import { type BenchResults, LOOP_APPS } from './bench-results.js';
import type { LayerResult } from './layer-passes.js';
import { describeShed } from './request-counts.js';
import { targetsTable } from './targets.js';
import { warmUpSummary } from './warm-up.js';

const num = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';
const ms = (value: number) => (Number.isFinite(value) ? (value >= 10_000 ? `${num(value / 1000, 1)} s` : `${num(value)} ms`) : 'n/a');

/** One row per end-to-end run: its offered rate, then `cell` of each name. */
function perRunTable<Name extends string>(
  runs: BenchResults['e2e']['runs'],
  names: readonly Name[],
  cell: (run: BenchResults['e2e']['runs'][number], name: Name) => string,
): string[] {
  return markdownTable(
    ['offered/s', ...names],
    runs.map((run) => [num(run.offeredPerSec), ...names.map((name) => cell(run, name))]),
  );
}

/** A Markdown table; the first column left-aligned, the others right-aligned. */
function markdownTable(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, index) => (index === 0 ? '---' : '---:')).join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

/** `on / off` of one figure. */
const onOff = (on: string, off: string) => `${on} / ${off}`;

/**
 * One row per speed-up layer: each figure with every layer on, then with only that layer off, and
 * what the layer buys in CPU (off ÷ on: 1.10 means 10 % more CPU per order without it).
 */
export function layersTable(layers: readonly LayerResult[], decisionsBase: string): string[] {
  return markdownTable(
    [
      'layer',
      'switch',
      'CPU ms/order on / off',
      'CPU off ÷ on',
      'p99 on / off',
      'finished/s on / off',
      'statements/order on / off',
      'round trips/order on / off',
      'record',
    ],
    layers.map((layer) => [
      `${layer.pattern}: ${layer.name}`,
      `\`${layer.switch}\``,
      onOff(num(layer.on.cpuMsPerOrder, 2), num(layer.off.cpuMsPerOrder, 2)),
      num(layer.off.cpuMsPerOrder / layer.on.cpuMsPerOrder, 2),
      onOff(ms(layer.on.p99Ms), ms(layer.off.p99Ms)),
      onOff(
        `${num(layer.on.achievedPerSec, 1)}${layer.on.backlogGrowing ? ' (growing)' : ''}`,
        `${num(layer.off.achievedPerSec, 1)}${layer.off.backlogGrowing ? ' (growing)' : ''}`,
      ),
      onOff(num(layer.on.statementsPerOrder, 1), num(layer.off.statementsPerOrder, 1)),
      onOff(num(layer.on.roundTripsPerOrder, 1), num(layer.off.roundTripsPerOrder, 1)),
      `[${layer.decision.split('/').pop()}](${decisionsBase}/${layer.decision})`,
    ]),
  );
}

export function resultsMarkdown(results: BenchResults, chartFile: string): string {
  const { machine, relay, inbox, http, e2e } = results;
  const kafkaApis = [...new Set(e2e.runs.flatMap((run) => Object.keys(run.kafkaRequestsPerOrder ?? {})))].sort();
  const httpApps = [...new Set(e2e.runs.flatMap((run) => Object.keys(run.httpRequestsPerOrder ?? {})))].sort();
  const stageNames = [...new Set(e2e.runs.flatMap((run) => Object.keys(run.stages)))];
  const lines = [
    `# Benchmark results (${results.mode} run, ${results.startedAt})`,
    '',
    `Machine: ${machine.cpuCount} × ${machine.cpuModel}, ${num(machine.totalMemoryMb)} MB RAM, ${machine.platform}; ` +
      `Node ${machine.nodeVersion}; Kafka ${machine.kafkaVersion}; PostgreSQL ${machine.postgresVersion}; ` +
      `load average at start ${machine.loadAverageAtStart.map((value) => num(value, 2)).join(' / ')}; ` +
      `autovacuum ${machine.postgresAutovacuum.on ? 'on' : 'OFF'} (${machine.postgresAutovacuum.note}).`,
    '',
    'Each figure is a ratio against a baseline measured in the same run, or a percentile at a fixed offered rate. Nothing here is asserted.',
    '',
    "## Against the project's targets (set for a full run; a quick run's shorter figures are indicative)",
    '',
    ...targetsTable(results.targets, '../../docs/performance.md'),
    '',
    '## Ratios against same-run baselines',
    '',
    ...markdownTable(
      ['figure', 'measured', 'baseline', 'ratio'],
      [
        [
          `relay: OutboxRelay.publishBatch vs raw kafkajs idempotent producer (${relay.messages} msgs, batch ${relay.batchSize})`,
          `${num(relay.relayPerSec)} msg/s`,
          `${num(relay.baselinePerSec)} msg/s`,
          num(relay.ratio, 2),
        ],
        [
          `inbox (fair): inventory app, relay and dispatcher idle, vs plain kafkajs consumer, same transaction without inbox row (${inbox.messages} msgs)`,
          `${num(inbox.inventoryPerSec)} msg/s`,
          `${num(inbox.plainPerSec)} msg/s`,
          num(inbox.ratio, 2),
        ],
        [
          `inbox (full app): the same app with its relay publishing and its dispatcher calling loyalty during the drain`,
          `${num(inbox.fullAppPerSec)} msg/s`,
          `${num(inbox.plainPerSec)} msg/s`,
          num(inbox.fullAppRatio, 2),
        ],
        [
          `inbox, before batches: the same app with INBOX_BATCH_SIZE=1 and one partition at a time`,
          `${num(inbox.oneByOnePerSec)} msg/s`,
          `${num(inbox.plainPerSec)} msg/s`,
          num(inbox.oneByOneRatio, 2),
        ],
      ],
    ),
    '',
    `## CPU per order of the whole loop, at ${num(results.cpu.orders)} orders of the fixed-rate run (taken after the loop's warm-up)`,
    '',
    ...(results.e2e.warmUp ? [`The ${warmUpSummary(results.e2e.warmUp)}.`, ''] : []),
    ...markdownTable(
      ['process', 'CPU ms per order'],
      [
        ...Object.entries(results.cpu.byProcess).map(([name, value]) => [name, num(value, 2)]),
        ['**total (all but the load generator)**', `**${num(results.cpu.totalMsPerOrder, 2)}**`],
        ['load generator (apart)', num(results.cpu.loadGeneratorMsPerOrder, 2)],
      ],
    ),
    '',
    `Ceiling at this cost: ${results.cpu.cores} cores × 1000 / ${num(results.cpu.totalMsPerOrder, 2)} ms = ` +
      `**${num(results.cpu.ceilingPerSec)} orders/s** (achieved at the fixed rate: ${num(e2e.runs[0]?.achievedPerSec ?? Number.NaN, 1)}/s).`,
    '',
    `## HTTP: POST /orders, ${http.concurrency} concurrent clients, the median of ${http.rounds} interleaved rounds of ${http.durationSec} s each`,
    '',
    ...markdownTable(
      ['server', 'requests/s', 'ratio to plain insert', 'each round'],
      (
        [
          ['orders app (Nest, TypeORM): order + outbox row in one transaction', http.withOutboxPerSec, 'orders'],
          ['plain node:http + pg: order insert only', http.withoutOutboxPerSec, 'insert'],
          ['plain node:http + pg: order + outbox row', http.plainWithOutboxPerSec, 'outbox'],
          ['plain node:http + pg: naive dual write (insert, then awaited Kafka send)', http.dualWritePerSec, 'dualWrite'],
        ] as const
      ).map(([server, perSec, key]) => [
        server,
        num(perSec),
        num(perSec / http.withoutOutboxPerSec, 2),
        (http.perRound?.[key] ?? []).map((value) => num(value)).join(', '),
      ]),
    ),
    '',
    '## End to end (one process per service, open-model load with Idempotency-Key)',
    '',
    "Latency: from the scheduled send to the commit of the order's RESERVED/REJECTED (orders.updated_at).",
    '',
    ...markdownTable(
      ['offered/s', 'seconds', 'achieved/s', 'accepted/s', 'p50', 'p95', 'p99', '201 answer p50 / p99', 'backlog', 'unfinished'],
      e2e.runs.map((run) => [
        num(run.offeredPerSec),
        num(run.durationSec),
        num(run.achievedPerSec, 1),
        num(run.acceptedPerSec, 1),
        ms(run.p50Ms),
        ms(run.p95Ms),
        ms(run.p99Ms),
        `${ms(run.answerP50Ms)} / ${ms(run.answerP99Ms)}`,
        run.backlogGrowing ? `growing (${num(run.backlogSlopePerSec, 1)}/s)` : `flat (${num(run.backlogSlopePerSec, 1)}/s)`,
        num(run.unfinished),
      ]),
    ),
    '',
    `Highest offered rate sustained without a growing backlog: **${num(e2e.maxSustainablePerSec)} orders/s**.`,
    `Backlog drain: ${num(e2e.drain.orders)} orders pending when inventory restarted (${num(e2e.drain.placedWhileStopped)} placed while it was stopped) drained at **${num(e2e.drainPerSec, 1)} orders/s**${e2e.drain.complete ? '' : ` (INCOMPLETE: ${num(e2e.drain.finished)} finished by the deadline)`} ` +
      `(inventory healthy after ${num(e2e.drain.inventoryStartSec, 1)} s; last order final at ${num(e2e.drain.ordersFinishedSec, 1)} s, ` +
      `last loyalty command DONE at ${num(e2e.drain.loyaltyDoneSec, 1)} s after it was healthy).`,
    '',
    `![latency against offered load](${chartFile})`,
    '',
    "### Per stage (p50 / p99), from the tables' own timestamps",
    '',
    ...perRunTable(e2e.runs, stageNames, (run, name) =>
      run.stages[name] ? `${ms(run.stages[name].p50Ms)} / ${ms(run.stages[name].p99Ms)}` : 'n/a',
    ),
    '',
    '### Requests per order (whole loop, each run after the warm-up)',
    '',
    ...markdownTable(
      [
        'offered/s',
        ...kafkaApis.map((api) => `Kafka ${api}`),
        'Postgres transactions',
        'Postgres statements',
        'Postgres round trips',
        ...httpApps.map((app) => `HTTP ${app}`),
      ],
      e2e.runs.map((run) => [
        num(run.offeredPerSec),
        ...kafkaApis.map((api) => num(run.kafkaRequestsPerOrder?.[api] ?? 0, 2)),
        num(run.postgres?.transactionsPerOrder ?? Number.NaN, 1),
        num(run.postgres?.statementsPerOrder ?? Number.NaN, 1),
        num(run.postgres?.roundTripsPerOrder ?? Number.NaN, 1),
        ...httpApps.map((app) => num(run.httpRequestsPerOrder?.[app] ?? 0, 2)),
      ]),
    ),
    '',
    '### Postgres per order, by app (transactions of its database / statements / round trips it sent)',
    '',
    ...perRunTable(e2e.runs, LOOP_APPS, (run, app) => {
      const figures = run.postgres?.byService?.[app];
      return [figures?.transactionsPerOrder, figures?.statementsPerOrder, figures?.roundTripsPerOrder]
        .map((value) => num(value ?? Number.NaN, 1))
        .join(' / ');
    }),
    '',
    '### Cost per process (during each run, after the warm-up)',
    '',
    ...markdownTable(
      ['offered/s', ...LOOP_APPS.flatMap((name) => [`${name} CPU ms/order`, `${name} peak RSS MB`])],
      e2e.runs.map((run) => [
        num(run.offeredPerSec),
        ...LOOP_APPS.flatMap((name) => [
          num(run.processes[name]?.cpuMsPerOrder ?? Number.NaN, 2),
          num(run.processes[name]?.peakRssMb ?? Number.NaN),
        ]),
      ]),
    ),
  ];
  lines.push(
    '',
    `### Memory per app: idle before the load, and peak at the sustained maximum (${num(e2e.maxSustainablePerSec)}/s)`,
    '',
    ...markdownTable(
      ['app', 'idle RSS MB', 'peak RSS MB at the maximum'],
      LOOP_APPS.map((app) => [app, num(results.memory.idleRssMb[app]), num(results.memory.peakRssMbAtMaximum[app])]),
    ),
  );
  if (results.overload.length > 0)
    lines.push(
      '',
      `## Overload: multiples of ${num(results.overload[0].offeredPerSec / results.overload[0].multiple)}/s (the sustained maximum, else the fixed rate), shed at the door`,
      '',
      ...markdownTable(
        [
          'multiple',
          'offered/s',
          'goodput/s',
          'accepted/s',
          'shed share',
          'shed by (figure past its bound: requests)',
          'accepted lost',
          'p99',
          '201 p99',
        ],
        results.overload.map((run) => [
          `${run.multiple}x`,
          num(run.offeredPerSec),
          num(run.goodputPerSec, 1),
          num(run.acceptedPerSec, 1),
          `${num(run.shedShare * 100, 1)} %`,
          describeShed(run.shedBySignal),
          num(run.lostAccepted),
          ms(run.p99Ms),
          ms(run.answerP99Ms),
        ]),
      ),
    );
  if (results.layers.length > 0)
    lines.push(
      '',
      `## Speed-up layers: each switched off alone, at ${num(results.layers[0].offeredPerSec)}/s for ${num(results.layers[0].durationSec)} s per pass`,
      '',
      'The "on" figures are one pass with every layer on; each "off" figure is a pass with only that layer off, in the same run.',
      '',
      ...layersTable(results.layers, '../..'),
    );
  if (results.notes.length > 0) lines.push('', '## Notes', '', ...results.notes.map((note) => `- ${note}`));
  return `${lines.join('\n')}\n`;
}
