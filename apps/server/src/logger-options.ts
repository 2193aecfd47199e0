import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';

/** Where log lines go: stdout unless a test captures them. */
export interface LogDestination {
  write(line: string): void;
}

/** Tokens never reach a log line, even when someone logs a request's headers. */
export const redactedLogPaths = ['req.headers.authorization', 'headers.authorization'];

/**
 * pino, through Fastify: one JSON object per line, each line of a request carrying its `reqId`. The lines go through
 * `process.stdout`, as the start-up banner does, not through pino's own asynchronous writer: that one let Fastify's
 * "Server listening at" line reach a pipe after the banner's last line, which promises that nothing comes before it
 * is printed. Below `debug` the server logs a handful of lines, so writing them in order costs nothing measurable.
 */
export function loggerOptions(
  config: Pick<Config, 'logLevel'>,
  destination?: LogDestination,
): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false;
  return {
    level: config.logLevel,
    redact: { paths: redactedLogPaths, censor: '[redacted]' },
    stream: destination ?? process.stdout,
  };
}
