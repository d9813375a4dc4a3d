import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, type Logger, pino } from 'pino';
import { createRequire } from 'node:module';
import { currentLogFields } from './log-fields.js';
import { currentTraceId } from './trace-context.js';

export interface LoggingOptions {
  /** `service` on every line. */
  service: string;
  level: string;
  /** json, pretty or auto (pretty when stdout is a terminal). */
  format: string;
}

let root: Logger = pino({ level: 'info', base: undefined });

/**
 * pino-pretty, loaded only when a terminal asks for it: a deployed service logs JSON and never
 * needs it (about 2 MB of RSS, docs/decisions/0014-telemetry-at-its-cost.md). `require` because it is CommonJS and must be
 * loaded synchronously here; the type comes from the package all the same.
 */
function loadPinoPretty(): typeof import('pino-pretty') {
  return createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
}

/**
 * Every line carries the current trace id and the unit of work's identifiers (message id, order
 * id, correlation id), read here once per line rather than threaded through every call.
 */
function contextFields(): object {
  const traceId = currentTraceId();
  const fields = currentLogFields();
  if (!traceId) return fields ?? {};
  return fields ? { ...fields, traceId } : { traceId };
}

/**
 * Configures the process-wide logger: JSON lines on stdout (pino, synchronous), or a readable form
 * for a terminal (`output` replaces stdout, for tests). Synchronous writes: a line logged just
 * before a SIGKILL (a failpoint) is not lost in a buffer. pretty runs in-process (no worker thread transport) so a crash loses no line.
 */
export function configureLogging(options: LoggingOptions, output?: DestinationStream): Logger {
  const pretty = options.format === 'pretty' || (options.format === 'auto' && process.stdout.isTTY === true);
  const destination: DestinationStream =
    output ??
    (pretty
      ? loadPinoPretty()({
          colorize: process.stdout.isTTY === true,
          sync: true,
          singleLine: true,
          translateTime: 'HH:MM:ss.l',
          messageFormat: '{if context}[{context}] {end}{msg}',
          ignore: 'pid,hostname,service,context',
        })
      : pino.destination({ sync: true }));
  root = pino({ level: options.level, base: { service: options.service }, mixin: contextFields }, destination);
  return root;
}

/** The process-wide logger (JSON at info until {@link configureLogging} ran). */
export function appLogger(): Logger {
  return root;
}

/**
 * Nest's logger, writing through pino. Written here (a few lines) rather than taken from
 * `nestjs-pino`: that package is CommonJS and `require`s `@nestjs/common`, which Nest 12 (ESM-only)
 * cannot satisfy under Jest ESM (see shared notes on CJS Nest wrappers).
 */
export class NestPinoLogger implements LoggerService {
  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest passes `(message, context)`, or `(message, stack, context)` for errors. */
  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, params: unknown[]): void {
    if (!root.isLevelEnabled(level)) return;
    const context = params.length > 0 && typeof params[params.length - 1] === 'string' ? (params[params.length - 1] as string) : undefined;
    const stack = level === 'error' && params.length > 1 && typeof params[0] === 'string' ? params[0] : undefined;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (stack) fields.stack = stack;
    if (message instanceof Error) root[level]({ ...fields, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) root[level]({ ...fields, ...message });
    else root[level](fields, String(message));
  }
}
