import { hostname } from 'node:os';
import type { PersistenceWarning } from './persistence.js';

/**
 * What the server prints itself around its logger: the start-up banner, early warnings and the one line that ends
 * a failed start. In production every line is a JSON object shaped like pino's (the log stays JSON lines only, for
 * whatever collects it); on a developer's machine they are plain text.
 */
export interface StartUpOutput {
  /** A banner line (stdout). */
  note(line: string): void;
  /** A warning before the logger exists (stderr in development). */
  readonly warn: PersistenceWarning;
  /** The line that ends a start (stderr). */
  fatal(line: string, details?: Record<string, unknown>): void;
}

const levels = { info: 30, warn: 40, fatal: 60 } as const;

export function startUpOutput(json: boolean): StartUpOutput {
  if (!json) {
    return {
      note: (line) => console.log(line),
      warn: (details, message) => console.warn(`meals: ${message}`, details),
      fatal: (line, details) => console.error(details === undefined ? line : `${line}\n${String(details.stack ?? '')}`),
    };
  }
  const base = { pid: process.pid, hostname: hostname() };
  const write = (
    stream: NodeJS.WriteStream,
    level: keyof typeof levels,
    msg: string,
    details: Record<string, unknown> = {},
  ) => stream.write(`${JSON.stringify({ level: levels[level], time: Date.now(), ...base, ...details, msg })}\n`);
  return {
    note: (line) => write(process.stdout, 'info', line),
    warn: (details, message) => write(process.stdout, 'warn', message, details),
    fatal: (line, details) => write(process.stderr, 'fatal', line, details),
  };
}
