import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { StartUpError } from './start-up-error.js';

/**
 * Reads `.env` from the working directory into process.env, as the server and every command-line tool start: a
 * variable set in the real environment wins over the file (as Node's own loader does). No file: nothing to read.
 * Returns the file's path when it was read.
 */
export function loadEnvFile(dir: string = process.cwd()): string | undefined {
  const path = resolve(dir, '.env');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StartUpError(`${path} cannot be read (${(error as Error).message}): fix its permissions or remove it.`);
  }
  for (const [name, value] of Object.entries(parseEnvText(path, text))) {
    if (process.env[name] === undefined) process.env[name] = value;
  }
  return path;
}

/** The environment with `.env` read into it: what every command-line tool configures itself from, like the server. */
export function withEnvFile(): NodeJS.ProcessEnv {
  loadEnvFile();
  return process.env;
}

/**
 * The variables of a `.env` text, read by Node's own parser after two checks it lacks: a byte order mark (Notepad
 * writes one) is skipped as editors do, instead of becoming part of the first name; and a quote that does not close
 * on its line is refused, instead of becoming part of the value (or of a value that swallows the lines after it).
 * No setting of this service spans lines.
 */
export function parseEnvText(path: string, text: string): Record<string, string> {
  const content = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  content.split(/\r?\n/).forEach((line, index) => {
    const quoted = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(["'`])(.*)$/.exec(line);
    if (quoted !== null && !quoted[3]!.includes(quoted[2]!)) {
      throw new StartUpError(
        `${path}:${index + 1}: the value of ${quoted[1]} opens a quote (${quoted[2]}) that does not close on its line: close it, or remove the quote.`,
      );
    }
  });
  return Object.fromEntries(
    Object.entries(parseEnv(content)).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
