/**
 * A disposable PostgreSQL server for tests and benchmarks: `initdb` into a temporary folder with the machine's own
 * binaries, started on a free port of 127.0.0.1, removed again by `stop()`. Not for production: it trusts every local
 * connection and turns durability off (fsync) for speed.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface ThrowawayCluster {
  /** Connection URL of the `postgres` database, as the superuser `postgres`. */
  readonly url: string;
  readonly port: number;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Drops a database made by createDatabase, closing whatever connections are still open on it. */
  dropDatabase(name: string): Promise<void>;
  /** Stops the server and deletes its folder. */
  stop(): Promise<void>;
}

export interface ThrowawayClusterOptions {
  /** Folder of initdb and postgres; found with `pg_config --bindir` or under /usr/lib/postgresql otherwise. */
  readonly binDir?: string;
  /** Extra server settings (`-c name=value`), e.g. { max_connections: '200' }. */
  readonly settings?: Readonly<Record<string, string>>;
}

/** The folder holding initdb and postgres, or an error that says how to install them. */
export function findPostgresBinDir(): string {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    // No pg_config on the PATH: look where Debian and Ubuntu install the server.
  }
  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debianRoot, version, 'bin')));
  }
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres')));
  if (found === undefined) {
    throw new Error('PostgreSQL server binaries not found (no initdb via pg_config --bindir or /usr/lib/postgresql/*/bin); ' +
      'install them (apt-get install postgresql) or set TEST_DATABASE_URL.');
  }
  return found;
}

export async function startThrowawayCluster(options: ThrowawayClusterOptions = {}): Promise<ThrowawayCluster> {
  const binDir = options.binDir ?? findPostgresBinDir();
  const owner = unprivilegedOwner();
  const folder = mkdtempSync(join(tmpdir(), 'meals-pg-'));
  const dataDir = join(folder, 'data');
  const removeFolder = () => {
    try {
      rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Left in the temporary folder for the OS to clean: never worth failing a test run over.
    }
  };
  try {
    if (owner !== undefined) chownSync(folder, owner.uid, owner.gid);
    execFileSync(join(binDir, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
      ...(owner ?? {}),
    });
  } catch (error) {
    removeFolder();
    throw new Error(`initdb failed: ${describe(error)}`, { cause: error });
  }

  // A free port can be taken by someone else before the server binds it: try a few.
  let lastFailure: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const server = spawn(join(binDir, 'postgres'), serverArguments(dataDir, port, options.settings ?? {}), {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
      ...(owner ?? {}),
    });
    const log = captureTail(server);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    try {
      await waitUntilReady(url, server, log);
    } catch (error) {
      lastFailure = error;
      await stopServer(server);
      continue;
    }
    return cluster(url, port, server, removeFolder);
  }
  removeFolder();
  throw new Error(`PostgreSQL did not start: ${describe(lastFailure)}`, { cause: lastFailure });
}

function cluster(url: string, port: number, server: ChildProcess, removeFolder: () => void): ThrowawayCluster {
  // If the owning process exits without stop(), the server and its folder must not outlive it.
  const onExit = () => {
    server.kill('SIGQUIT');
    removeFolder();
  };
  process.once('exit', onExit);
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    createDatabase: async (name) => {
      await admin(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      return urlOf(name);
    },
    dropDatabase: (name) => admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
    stop: () =>
      (stopping ??= (async () => {
        process.removeListener('exit', onExit);
        await stopServer(server);
        removeFolder();
      })()),
  };
}

function serverArguments(dataDir: string, port: number, settings: Readonly<Record<string, string>>): string[] {
  const all: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: '', // TCP only: no socket file whose path length or folder could get in the way
    fsync: 'off', // the data is thrown away anyway
    synchronous_commit: 'off',
    full_page_writes: 'off',
    max_connections: '200',
    ...settings,
  };
  return ['-D', dataDir, ...Object.entries(all).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
}

/** PostgreSQL refuses to run as root: when we are root, run it as the `postgres` OS user. */
function unprivilegedOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch (error) {
    throw new Error('running as root, and there is no `postgres` OS user to run the server as', { cause: error });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitUntilReady(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`the server exited (${server.exitCode ?? server.signalCode}): ${log()}`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`no answer within 30 s: ${describe(error)}; ${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/** Fast shutdown (SIGINT), then SIGKILL if the server has not gone after a few seconds. */
function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => server.kill('SIGKILL'), 10_000);
    server.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    server.kill('SIGINT');
  });
}

/** The last few kilobytes of the server's log, to explain a failed start. */
function captureTail(server: ChildProcess): () => string {
  let tail = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  });
  return () => tail.trim();
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const stderr = (error as { stderr?: Buffer | string }).stderr;
    return stderr === undefined || stderr.length === 0 ? error.message : `${error.message}: ${stderr.toString().trim()}`;
  }
  return String(error);
}
