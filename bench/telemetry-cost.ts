// CPU cost of the per-message telemetry: the inbox's `message handled` line at info,
// and a CONSUMER span not recorded (no endpoint), recorded and exported over OTLP, or sampled.
// Each variant runs in a child process of its own (tracing is set up once per process), emitting
// 2,000 units of work a second for 6 s after a warm-up, with its stdout piped to this process as an
// app's is to its supervisor; the OTLP receiver runs here, so its CPU is not counted. Figures are
// the child's own user + system CPU per unit. Run after a build: `node dist/bench/telemetry-cost.js`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { trace } from '@opentelemetry/api';
import { NodeProcess } from '@tools/local-stack';
import {
  appLogger,
  appTracer,
  configureLogging,
  contextFromTraceparent,
  flushSpans,
  runWithLogFields,
  SpanKind,
  startTracing,
  withContext,
} from '@libs/telemetry';

const PER_SECOND = 2000;
const SECONDS = 6;
const TICKS_PER_SECOND = 100;

interface Variant {
  label: string;
  logLevel: string;
  export: boolean;
  samplePercent: number;
}

const VARIANTS: Variant[] = [
  { label: 'span not recorded (no endpoint), no log line (LOG_LEVEL=warn)', logLevel: 'warn', export: false, samplePercent: 100 },
  { label: 'span not recorded, `message handled` line at info (the default)', logLevel: 'info', export: false, samplePercent: 100 },
  { label: 'span recorded and exported (OTLP, 100 %), no log line', logLevel: 'warn', export: true, samplePercent: 100 },
  { label: 'span exported, OTEL_TRACES_SAMPLE_PERCENT=10, no log line', logLevel: 'warn', export: true, samplePercent: 10 },
  { label: 'span exported, OTEL_TRACES_SAMPLE_PERCENT=0, no log line', logLevel: 'warn', export: true, samplePercent: 0 },
];

const ID = '6f1c2a8e-1234-4abc-9def-0123456789ab';

/** One consumed message's telemetry, as libs/inbox does it: span, scope, line, end. */
function unitOfWork(): void {
  const fields = { consumer: 'inventory', messageId: ID, messageType: 'OrderCreated', correlationId: ID, aggregateId: ID };
  const parent = contextFromTraceparent(undefined);
  const span = appTracer().startSpan(
    'orders.orders.v1 process',
    { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'kafka' } },
    parent,
  );
  withContext(trace.setSpan(parent, span), () =>
    runWithLogFields(fields, () => {
      span.setAttribute('inbox.outcome', 'processed');
      span.end();
      const logger = appLogger();
      if (logger.isLevelEnabled('info'))
        logger.info(
          {
            ...fields,
            traceId: span.spanContext().traceId,
            outcome: 'processed',
            topic: 'orders.orders.v1',
            partition: 1,
            offset: '12345',
            durationMs: 3.2,
          },
          'message handled',
        );
    }),
  );
}

async function child(variant: Variant, endpoint: string): Promise<void> {
  configureLogging({ service: 'inventory', level: variant.logLevel, format: 'json' });
  await startTracing({ serviceName: 'inventory', otlpEndpoint: variant.export ? endpoint : '', samplePercent: variant.samplePercent });
  const tick = () => {
    for (let i = 0; i < PER_SECOND / TICKS_PER_SECOND; i += 1) unitOfWork();
  };
  const run = async (ticks: number) => {
    for (let i = 0; i < ticks; i += 1) {
      tick();
      await new Promise((resolve) => setTimeout(resolve, 1000 / TICKS_PER_SECOND));
    }
  };
  await run(TICKS_PER_SECOND);
  const before = process.cpuUsage();
  await run(SECONDS * TICKS_PER_SECOND);
  await flushSpans();
  const used = process.cpuUsage(before);
  process.stderr.write(`${JSON.stringify({ usPerUnit: (used.user + used.system) / (PER_SECOND * SECONDS) })}\n`);
  process.exit(0);
}

async function runChild(variant: Variant, endpoint: string): Promise<number> {
  // stdout stays a pipe, as an app's is under a supervisor: the log lines cost their write.
  const { code, stderr } = await NodeProcess.outcome({
    entry: fileURLToPath(import.meta.url),
    nodeArgs: ['--max-semi-space-size=2'],
    args: [JSON.stringify(variant), endpoint],
    env: process.env,
    cwd: process.cwd(),
  });
  const last = stderr.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('{')) throw new Error(`variant "${variant.label}" exited ${code}: ${stderr}`);
  return (JSON.parse(last) as { usPerUnit: number }).usPerUnit;
}

async function main(): Promise<void> {
  const receiver = createServer((req, res) => {
    req.resume();
    req.once('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  console.log(`| per consumed message, ${PER_SECOND}/s for ${SECONDS} s | CPU µs per message |\n|---|---:|`);
  for (const variant of VARIANTS) console.log(`| ${variant.label} | ${(await runChild(variant, endpoint)).toFixed(1)} |`);
  receiver.close();
}

if (process.argv[2]) await child(JSON.parse(process.argv[2]) as Variant, process.argv[3]);
else await main();
