import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as the apps' real OTLP/HTTP exporter sent it, flattened with its service name. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  links: { traceId: string; spanId: string }[];
}

/** OTLP/JSON carries ids as hex (the spec); some encoders send base64: accept both. */
function hexId(id: string | undefined): string | undefined {
  if (!id) return undefined;
  return /^[0-9a-f]+$/i.test(id) && (id.length === 32 || id.length === 16) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

interface OtlpJson {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        links?: { traceId: string; spanId: string }[];
      }[];
    }[];
  }[];
}

/**
 * A test-only OTLP/HTTP trace receiver (JSON encoding): the apps export to it with their real
 * exporter (`OTEL_EXPORTER_OTLP_ENDPOINT`), and the test reads what arrived. It accepts
 * `POST /v1/traces` and answers 200 with an empty partial-success body, as a collector does.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    const server = createServer();
    const receiver = new OtlpReceiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/v1/traces') {
          response.writeHead(404).end();
          return;
        }
        try {
          receiver.add(JSON.parse(Buffer.concat(chunks).toString()) as OtlpJson);
          response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } catch (error) {
          response.writeHead(400).end((error as Error).message);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  private add(body: OtlpJson): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service = resourceSpans.resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value.stringValue ?? '?';
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            service,
            traceId: hexId(span.traceId)!,
            spanId: hexId(span.spanId)!,
            parentSpanId: hexId(span.parentSpanId),
            name: span.name,
            kind: span.kind,
            links: (span.links ?? []).map((link) => ({ traceId: hexId(link.traceId)!, spanId: hexId(link.spanId)! })),
          });
        }
      }
    }
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
