import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runServerToExit, runToExit, serverMain, startServer } from './support/server-process.js';

const initDatabase = fileURLToPath(new URL('../dist/cli/init-database.js', import.meta.url));
const production = {
  NODE_ENV: 'production',
  JWT_SECRET: 'storage-start-test-secret-of-32-bytes!!!',
  LOG_LEVEL: 'warn',
};

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'meals-storage-start-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe('starting on a missing SQLite database file in production', () => {
  it('is refused with exit code 1, naming the path and the two ways out, and creates nothing', async () => {
    const path = join(folder, 'volume', 'meals.db');
    const { code, output } = await runServerToExit({ ...production, DATABASE_URL: `sqlite:${path}` });
    expect(code).toBe(1);
    expect(output).toContain(path);
    expect(output).toContain('pnpm db:init');
    expect(output).toContain('DATABASE_CREATE=1');
    expect(existsSync(path)).toBe(false);
  });

  it('starts once `pnpm db:init` created the file, or with DATABASE_CREATE=1', async () => {
    const initialised = join(folder, 'a.db');
    const init = await runToExit(initDatabase, [], { ...production, DATABASE_URL: `sqlite:${initialised}` });
    expect(init).toMatchObject({ code: 0 });
    expect(init.output).toContain('migrations applied');
    for (const env of [
      { DATABASE_URL: `sqlite:${initialised}` },
      { DATABASE_URL: `sqlite:${join(folder, 'b.db')}`, DATABASE_CREATE: '1' },
    ]) {
      const server = await startServer({ ...production, ...env });
      expect(await server.stop()).toBe(0);
    }
  });
});

// Root writes through any permission, so the read-only copy is only read-only for another user: `nobody`.
const canRunAsNobody = process.getuid?.() === 0 && spawnSync('runuser', ['--version']).status === 0;

describe('starting on a read-only copy of the database', () => {
  it.skipIf(!canRunAsNobody)(
    'is refused, and leaves no -wal or -shm file behind that would block a writable server',
    async () => {
      const data = join(folder, 'data');
      mkdirSync(data);
      const init = await runToExit(initDatabase, [], { DATABASE_URL: `sqlite:${join(folder, 'original.db')}` });
      expect(init.code).toBe(0);
      const path = join(data, 'meals.db');
      copyFileSync(join(folder, 'original.db'), path);
      // The folder stays writable (the worst case: SQLite could create its companions there); the file is read-only.
      chmodSync(folder, 0o755);
      chmodSync(data, 0o777);
      chmodSync(path, 0o444);
      const before = readFileSync(path);

      const run = withTraversableAncestors(serverMain, () =>
        spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, serverMain], {
          env: { PATH: process.env.PATH ?? '', PORT: '0', DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'warn' },
          encoding: 'utf8',
          timeout: 30_000,
        }),
      );
      expect(run.stderr).not.toContain('Cannot find module');

      expect(readdirSync(data)).toEqual(['meals.db']);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`${path} cannot be written`);
      expect(readFileSync(path).equals(before)).toBe(true);
    },
  );
});

/**
 * `nobody` must reach the server's code: a checkout under a private folder (`mktemp -d` makes them 0700) would hide
 * it. Lets others traverse (search, not list) each folder above `file` for the call, then puts every mode back.
 */
function withTraversableAncestors<T>(file: string, run: () => T): T {
  const changed: { folder: string; mode: number }[] = [];
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    const { mode } = statSync(folder);
    if ((mode & 0o001) === 0) {
      chmodSync(folder, mode | 0o001);
      changed.push({ folder, mode });
    }
    if (dirname(folder) === folder) break;
  }
  try {
    return run();
  } finally {
    for (const { folder, mode } of changed) chmodSync(folder, mode & 0o7777);
  }
}
