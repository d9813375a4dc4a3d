import { appLogger } from '@libs/telemetry';
import { logLevel, type logCreator } from 'kafkajs';
import type { Logger } from 'pino';

const PINO_LEVELS: Record<logLevel, 'error' | 'warn' | 'info' | 'debug' | undefined> = {
  [logLevel.NOTHING]: undefined,
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * A kafkajs `logCreator` that writes every kafkajs line through the app's pino logger, so the
 * client's warnings have the shape of every other line (JSON or pretty, `service`, trace ids)
 * instead of kafkajs' own console JSON. `context` is `kafkajs`, `namespace` the kafkajs component
 * (Connection, Consumer, ...); kafkajs' `timestamp` and `logger` fields are dropped, pino has its
 * own. The logger is looked up per line, so a client created before `configureLogging` still
 * writes through the configured one.
 *
 * @param logger the target; default the process-wide {@link appLogger}.
 */
export function kafkaLogCreator(logger: () => Logger = appLogger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const method = PINO_LEVELS[level];
      if (!method) return;
      const { message, timestamp: _timestamp, logger: _logger, ...fields } = log;
      logger()[method]({ context: 'kafkajs', namespace, ...fields }, message);
    };
}
