import { probeThrough, sampleMeal } from '@canteen-meals/repository-contract';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createSqliteAdapters,
  GroupCommit,
  openSqliteDatabase,
  Refusal,
  type SqliteDatabase,
} from '@canteen-meals/adapters-sqlite';
import { decideRatingChange, type RatingValue } from '@canteen-meals/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

describe('GroupCommit', () => {
  let folder: string;
  let path: string;
  let db: SqliteDatabase;
  let statements: string[];
  let group: GroupCommit;
  const opened: SqliteDatabase[] = [];

  const insert = (key: string) => () => db.prepare('INSERT INTO notes (key) VALUES (?)').run(key).changes;
  const keysIn = (connection: SqliteDatabase) =>
    connection
      .prepare<[], { key: string }>('SELECT key FROM notes ORDER BY key')
      .all()
      .map(({ key }) => key);
  const transactionStatements = () => statements.filter((sql) => /^(BEGIN|COMMIT|ROLLBACK)/.test(sql));

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'meals-group-'));
    path = join(folder, 'meals.db');
    statements = [];
    db = openSqliteDatabase(path, { onStatement: (sql) => statements.push(sql) });
    opened.push(db);
    db.exec('CREATE TABLE notes (key TEXT PRIMARY KEY, meal_id INTEGER REFERENCES meals (meal_id))');
    group = new GroupCommit(db);
    statements.length = 0;
  });
  afterEach(() => {
    for (const connection of opened.splice(0)) if (connection.open) connection.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('runs the writes of one turn in one IMMEDIATE transaction, in order, and settles them after the commit', async () => {
    const other = openSqliteDatabase(path);
    opened.push(other);
    const seenAtSettlement: string[][] = [];
    const writes = ['a', 'b', 'c'].map((key) =>
      group.run(insert(key)).then((changes) => {
        // Settled only once durable: another connection already reads every write of the group.
        seenAtSettlement.push(keysIn(other));
        return changes;
      }),
    );

    expect(await Promise.all(writes)).toEqual([1, 1, 1]);
    expect(transactionStatements()).toEqual(['BEGIN IMMEDIATE', 'COMMIT']);
    expect(seenAtSettlement).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ]);
  });

  it('a write alone in its turn runs in a transaction of its own, and turns do not merge', async () => {
    expect(await group.run(insert('a'))).toBe(1);
    expect(await group.run(insert('b'))).toBe(1);

    expect(transactionStatements()).toEqual(['BEGIN IMMEDIATE', 'COMMIT', 'BEGIN IMMEDIATE', 'COMMIT']);
  });

  it('a write that returns a Refusal rejects with its reason, and its group commits without a rollback', async () => {
    const reason = new Error('refused before writing');
    const results = await Promise.allSettled([
      group.run(insert('a')),
      group.run(() => new Refusal(reason)),
      group.run(insert('b')),
    ]);

    expect(results).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason },
      { status: 'fulfilled', value: 1 },
    ]);
    expect(keysIn(db)).toEqual(['a', 'b']);
    expect(transactionStatements()).toEqual(['BEGIN IMMEDIATE', 'COMMIT']);
    // Alone in its turn, a refusal rejects the same way.
    await expect(group.run(() => new Refusal(reason))).rejects.toBe(reason);
  });

  it('a write that throws rejects alone: the group is rolled back and every other write runs again alone', async () => {
    const results = await Promise.allSettled([
      group.run(insert('a')),
      group.run(() => {
        insert('half-done')();
        throw new Error('failed after a first statement');
      }),
      group.run(insert('a')),
      group.run(insert('b')),
    ]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('failed after a first statement'));
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    expect(keysIn(db)).toEqual(['a', 'b']);
    expect(transactionStatements()).toEqual([
      'BEGIN IMMEDIATE',
      'ROLLBACK',
      ...['BEGIN IMMEDIATE', 'COMMIT'],
      ...['BEGIN IMMEDIATE', 'ROLLBACK'],
      ...['BEGIN IMMEDIATE', 'COMMIT'],
    ]);
    expect(db.inTransaction).toBe(false);
  });

  it('when the COMMIT fails, every write that did not fail on its own is run again alone', async () => {
    const results = await Promise.allSettled([
      group.run(insert('a')),
      // A deferred foreign key is only checked at COMMIT: this write passes, and the group's commit fails.
      group.run(() => {
        db.pragma('defer_foreign_keys = ON');
        return (
          insert('dangling')() + db.prepare('UPDATE notes SET meal_id = 999 WHERE key = ?').run('dangling').changes
        );
      }),
      group.run(insert('b')),
    ]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY constraint failed/);
    expect(keysIn(db)).toEqual(['a', 'b']);
    expect(transactionStatements()).toEqual([
      'BEGIN IMMEDIATE',
      'COMMIT',
      'ROLLBACK',
      ...['a', 'dangling', 'b'].flatMap((key) => [
        'BEGIN IMMEDIATE',
        'COMMIT',
        ...(key === 'dangling' ? ['ROLLBACK'] : []),
      ]),
    ]);
  });

  it('when SQLite drops the transaction inside a write, the writes before and after it are run again alone', async () => {
    const results = await Promise.allSettled([
      group.run(insert('a')),
      group.run(() => {
        // What SQLite does on a full disk or an I/O error: the whole transaction is rolled back under the writer.
        db.prepare('ROLLBACK').run();
        throw new Error('disk full');
      }),
      group.run(insert('b')),
    ]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(keysIn(db)).toEqual(['a', 'b']);
    expect(db.inTransaction).toBe(false);
  });

  it('a refused rating rejects without a rollback: the rest of its group commits together', async () => {
    const now = new Date();
    const servedAt = now.getTime() - 3_600_000;
    const { meals, ratings, queries } = createSqliteAdapters(db);
    // Through the catalog: a meal row written by hand would have no dish, and a rating reads its meal's dish.
    await meals.upsertMany([
      sampleMeal(1, { name: 'Soup', servedAt: new Date(servedAt) }),
      sampleMeal(2, { name: 'Water', servedAt: new Date(servedAt), rateable: false }),
    ]);
    const rate = (user: string, mealId: number, value: RatingValue) =>
      ratings.change(user, mealId, (snapshot) => decideRatingChange(snapshot, value, now));
    statements.length = 0;

    const results = await Promise.allSettled([rate('alice', 1, 4), rate('bob', 2, 3), rate('carol', 1, 5)]);

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect((results[1] as PromiseFulfilledResult<unknown>).value).toMatchObject({
      ok: false,
      refusal: { code: 'meal_not_rateable' },
    });
    expect(transactionStatements()).toEqual(['BEGIN IMMEDIATE', 'COMMIT']);
    expect(await probeThrough(() => queries).histogram(1)).toEqual([0, 0, 0, 1, 1]);
    expect(await probeThrough(() => queries).histogram(2)).toEqual([0, 0, 0, 0, 0]);
  });

  it('when another process holds the write lock past the busy timeout, the whole group fails and nothing is written', async () => {
    const writer = openSqliteDatabase(path, { busyTimeoutMs: 0 });
    opened.push(writer);
    const waiting = new GroupCommit(writer);
    db.prepare('BEGIN IMMEDIATE').run();
    try {
      const results = await Promise.allSettled([waiting.run(() => 1), waiting.run(() => 2)]);
      expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
      expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/database is locked/);
    } finally {
      db.prepare('ROLLBACK').run();
    }
    expect(await waiting.run(() => writer.prepare('INSERT INTO notes (key) VALUES (?)').run('later').changes)).toBe(1);
    expect(writer.inTransaction).toBe(false);
  });
});
