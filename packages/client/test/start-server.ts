import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer as startServerProcess } from '../../../apps/server/test/support/server-process.js';

export interface RunningServer {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/** The real server process (apps/server/dist/main.js, built by `pnpm test`) on a free port with a new SQLite file. */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'meals-client-test-'));
  const removeData = () => rmSync(dataDir, { recursive: true, force: true });
  try {
    const server = await startServerProcess({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dataDir, 'meals.db')}`,
      DATABASE_CREATE: '1',
      ...env,
    });
    return {
      baseUrl: server.url,
      stop: async () => {
        const code = await server.stop().finally(removeData);
        if (code !== 0) throw new Error(`the server stopped with exit code ${code}:\n${server.output()}`);
      },
    };
  } catch (error) {
    removeData();
    throw error;
  }
}
