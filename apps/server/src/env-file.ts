import { resolve } from 'node:path';
import { StartUpError } from './start-up-error.js';

/**
 * Reads `.env` from the working directory into process.env, as the server and every command-line tool start: a
 * variable set in the real environment wins over the file (Node's own loader keeps it). No file: nothing to read.
 * Returns the file's path when it was read.
 */
export function loadEnvFile(dir: string = process.cwd()): string | undefined {
  const path = resolve(dir, '.env');
  try {
    process.loadEnvFile(path);
    return path;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StartUpError(`${path} cannot be read (${(error as Error).message}): fix its permissions or remove it.`);
  }
}

/** The environment with `.env` read into it: what every command-line tool configures itself from, like the server. */
export function withEnvFile(): NodeJS.ProcessEnv {
  loadEnvFile();
  return process.env;
}
