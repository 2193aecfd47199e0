import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverMain = fileURLToPath(new URL('../../../apps/server/dist/main.js', import.meta.url));

export interface RunningServer {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/** Starts the built server (apps/server/dist/main.js) on a free port with a new SQLite file; `pnpm test` builds it. */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  if (!existsSync(serverMain)) throw new Error(`${serverMain} is missing: run \`pnpm build\` first`);
  const dataDir = mkdtempSync(join(tmpdir(), 'meals-client-test-'));
  const child = spawn(process.execPath, [serverMain], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: `sqlite:${join(dataDir, 'meals.db')}`,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1]!);
      };
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      void exited.then((code) => reject(new Error(`the server exited with ${code} before listening:\n${output}`)));
    });
    return { baseUrl, stop: () => stop(child, exited).finally(() => rmSync(dataDir, { recursive: true, force: true })) };
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function stop(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode === null) child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`the server stopped with exit code ${code}`);
}
