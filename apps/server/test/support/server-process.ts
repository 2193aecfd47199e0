import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const serverMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/**
 * The bound of a synchronous child run (`spawnSync`) in a test: it blocks the test's worker, so vitest's own timeout
 * cannot stop it, and a child that hangs would hold the whole run. Past it the child is killed and its `status` is
 * null.
 */
export const syncRunTimeoutMs = 60_000;

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process printed so far, stdout and stderr together. */
  output(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the built server (`tsc -b` first: `pnpm test` does) on a free port and resolves once it listens.
 * `env` is added to a clean environment with PORT=0 and silent logs.
 */
export async function startServer(
  env: Record<string, string>,
  timeoutMs = 15_000,
  options: { readonly cwd?: string; readonly main?: string } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [options.main ?? serverMain], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });

  return {
    url,
    child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs a built script of this app to its exit, with `env` added to a clean environment. */
export async function runToExit(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => ((output += chunk), (stdout += chunk)));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => ((output += chunk), (stderr += chunk)));
  const [code] = await once(child, 'exit');
  return { code: code as number | null, output, stdout, stderr };
}

/** Runs the server to its exit, for starts that must fail. */
export function runServerToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string; stdout: string; stderr: string }> {
  return runToExit(serverMain, [], { PORT: '0', ...env });
}
