import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  openSqliteDatabase,
  startBackgroundCheckpoints,
  throttleFailures,
  type SqliteDatabase,
} from '@canteen-meals/adapters-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** Polls until `done` holds, for at most `patienceMs` (generous: this waits for an event, it measures no speed). */
async function eventually(done: () => boolean, patienceMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + patienceMs;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await sleep(10);
  }
  return true;
}

describe('startBackgroundCheckpoints', () => {
  let folder: string;
  let path: string;
  let db: SqliteDatabase;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'meals-checkpoints-'));
    path = join(folder, 'meals.db');
    db = openSqliteDatabase(path);
    // Everything the database holds so far goes into the file, and the WAL starts empty.
    db.pragma('wal_checkpoint(TRUNCATE)');
  });
  afterEach(() => {
    if (db.open) db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('copies what the serving connection wrote into the database file, from another thread', async () => {
    db.exec('CREATE TABLE filler (text TEXT)');
    const insert = db.prepare('INSERT INTO filler (text) VALUES (?)');
    db.transaction(() => {
      for (let row = 0; row < 200; row++) insert.run('x'.repeat(1000));
    })();
    const fileSize = () => statSync(path).size;
    const before = fileSize();
    // 200 KB in the WAL is far below the connection's own automatic checkpoint: only the thread moves it.
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(200_000);

    const failures: string[] = [];
    const checkpoints = startBackgroundCheckpoints(path, {
      intervalMs: 20,
      onFailure: (message) => failures.push(message),
    });
    try {
      expect(await eventually(() => fileSize() >= before + 200_000)).toBe(true);
    } finally {
      await checkpoints.stop();
    }
    expect(failures).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM filler').get()).toEqual({ n: 200 });
  });

  it('reports a thread that cannot open the file, and stop() still resolves', async () => {
    const failures: string[] = [];
    const checkpoints = startBackgroundCheckpoints(join(folder, 'missing', 'meals.db'), {
      onFailure: (message) => failures.push(message),
    });

    expect(await eventually(() => failures.length > 0)).toBe(true);
    expect(failures[0]).toMatch(/unable to open database file|does not exist/);
    await checkpoints.stop();
  });

  it('stops quietly: a second stop() is harmless and the serving connection goes on', async () => {
    const failures: string[] = [];
    const checkpoints = startBackgroundCheckpoints(path, {
      intervalMs: 5,
      onFailure: (message) => failures.push(message),
    });
    await sleep(30);
    await checkpoints.stop();
    await checkpoints.stop();

    expect(failures).toEqual([]);
    db.exec('CREATE TABLE later (id INTEGER)');
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

describe('checkpoint failures', () => {
  it('are reported at most once a minute, each report counting the failures since the last one', () => {
    let now = Date.parse('2026-03-10T12:00:00Z');
    const clock = { now: () => new Date(now) };
    const reports: [string, number][] = [];
    const fail = throttleFailures((message, failures) => reports.push([message, failures]), 60_000, clock);

    fail('disk I/O error');
    // A failing disk fails every checkpoint: ten a second for the next minute but one millisecond.
    for (let tick = 1; tick < 600; tick += 1) {
      now += 100;
      fail('disk I/O error');
    }
    now += 99;
    fail('disk I/O error');
    expect(reports).toEqual([['disk I/O error', 1]]);

    now += 1;
    fail('database or disk is full');
    expect(reports).toEqual([
      ['disk I/O error', 1],
      ['database or disk is full', 601],
    ]);
  });
});
