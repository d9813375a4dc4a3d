import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { flushSpans } from './tracing.js';

/** Exports the spans still batched when the app shuts down (SIGTERM); a SIGKILL loses them, as it must. */
@Injectable()
class SpanFlusher implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await flushSpans().catch(() => undefined);
  }
}

/** Import once in each app's root module; tracing itself is started by `startTelemetry` in `main.ts`. */
@Module({ providers: [SpanFlusher] })
export class TelemetryModule {}
