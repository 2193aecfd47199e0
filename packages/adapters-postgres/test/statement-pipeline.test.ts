import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryPipeline, StatementPipeline, type PipelinedStatement } from '../src/statement-pipeline.js';
import { withoutSessionState } from '../src/without-session-state.js';
import { databasePerFile } from './support/test-database.js';

const databaseUrl = databasePerFile();
// One connection: every pipeline of a test runs on the session the one before it used.
let pool: pg.Pool;
beforeAll(async () => {
  pool = new pg.Pool({ connectionString: databaseUrl(), max: 1 });
  await pool.query('CREATE TABLE probe (id integer PRIMARY KEY, note text NOT NULL)');
});
afterAll(async () => {
  await pool.end();
});
beforeEach(async () => {
  await pool.query('DELETE FROM probe');
});

/** The probe's statements, named with `prefix`: a test whose names are new on the connection has them parsed. */
const probeStatements = (prefix = 'probe') => ({
  setNote: {
    name: `${prefix}-set-note`,
    text: "SELECT set_config('probe.note', $1, true)",
    values: ['in the transaction'],
  } as PipelinedStatement,
  insert: (id: number): PipelinedStatement => ({
    name: `${prefix}-insert`,
    text: "INSERT INTO probe VALUES ($1, current_setting('probe.note'))",
    values: [id],
  }),
  listAll: {
    name: `${prefix}-list`,
    text: 'SELECT id, note, pg_current_xact_id()::text FROM probe ORDER BY id',
    values: [],
  } as PipelinedStatement,
});
const { setNote, insert, listAll } = probeStatements();

const stored = async () =>
  (await pool.query<{ id: number; note: string }>('SELECT id, note FROM probe ORDER BY id')).rows;
const preparedNames = async () =>
  (
    await pool.query<{ name: string }>(
      "SELECT name FROM pg_prepared_statements WHERE name LIKE 'probe-%' ORDER BY name",
    )
  ).rows.map((row) => row.name);

describe('StatementPipeline', () => {
  it('runs its statements in order as one transaction, and answers the rows of the last one as text', async () => {
    const rows = await queryPipeline(pool, new StatementPipeline('probe', [setNote, insert(1), insert(2), listAll]));
    // The setting the first statement made for the transaction holds in the next ones; the rows written before the
    // last statement are in its snapshot; all four ran under one transaction id.
    expect(rows.map((row) => row.slice(0, 2))).toEqual([
      ['1', 'in the transaction'],
      ['2', 'in the transaction'],
    ]);
    expect(new Set(rows.map((row) => row[2])).size).toBe(1);
    // Committed at the Sync, and the setting went with the transaction.
    expect(await stored()).toEqual([
      { id: 1, note: 'in the transaction' },
      { id: 2, note: 'in the transaction' },
    ]);
    const { rows: after } = await pool.query<{ note: string | null }>(
      "SELECT current_setting('probe.note', true) AS note",
    );
    expect(after[0]!.note === null || after[0]!.note === '').toBe(true);
  });

  it('prepares its statements once per connection under their names', async () => {
    await queryPipeline(pool, new StatementPipeline('probe', [setNote, insert(1), listAll]));
    expect(await preparedNames()).toEqual(['probe-insert', 'probe-list', 'probe-set-note']);
    const rows = await queryPipeline(pool, new StatementPipeline('probe', [setNote, insert(2), listAll]));
    expect(rows.map((row) => row[0])).toEqual(['1', '2']);
  });

  it('rolls the whole transaction back when a statement fails, answers its error, and runs again on the same session', async () => {
    // A client, not the pool: pg-pool drops a connection after any error, a client's session goes on. Names new on
    // it, so that the failing pipeline parses each of them.
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      const { setNote, insert, listAll } = probeStatements('probe-again');
      const failing = queryPipeline(client, new StatementPipeline('probe', [setNote, insert(1), insert(1), listAll]));
      await expect(failing).rejects.toMatchObject({ code: '23505' });
      expect(await stored()).toEqual([]);
      // PostgreSQL skipped every message after the error, the last statement's Parse with it: the next pipeline of
      // those names closes and parses them again.
      await queryPipeline(client, new StatementPipeline('probe', [setNote, insert(3), listAll]));
      const rows = await queryPipeline(client, new StatementPipeline('probe', [setNote, insert(4), listAll]));
      expect(rows.map((row) => row[0])).toEqual(['3', '4']);
    } finally {
      await client.end();
    }
  });

  it('fails without sending anything when a value cannot be sent, and the connection goes on', async () => {
    const unsendable = {
      toPostgres: () => {
        throw new Error('no way to send this');
      },
    };
    const pipeline = new StatementPipeline('probe', [setNote, { ...insert(1), values: [unsendable] }, listAll]);
    await expect(queryPipeline(pool, pipeline)).rejects.toThrow('no way to send this');
    expect(await stored()).toEqual([]);
    await queryPipeline(pool, new StatementPipeline('probe', [setNote, insert(5), listAll]));
    expect(await stored()).toEqual([{ id: 5, note: 'in the transaction' }]);
  });

  it('sends its parameters as node-postgres sends a query’s: arrays, text that needs quoting, null', async () => {
    const echo: PipelinedStatement = {
      name: 'probe-echo',
      text: 'SELECT array_length($1::bigint[], 1), ($2::text[])[2], $3::text IS NULL',
      values: [[1, 2, 3], ['plain', 'a "quoted", {braced} \\ value'], null],
    };
    const [row] = await queryPipeline(pool, new StatementPipeline('probe', [echo]));
    expect(row).toEqual(['3', 'a "quoted", {braced} \\ value', 't']);
  });

  it('parses its statements every time, preparing none, when it goes through a pool without session state', async () => {
    await pool.query('DEALLOCATE ALL');
    const rows = await queryPipeline(
      withoutSessionState(pool),
      new StatementPipeline('probe', [setNote, insert(6), listAll]),
    );
    expect(rows.map((row) => row.slice(0, 2))).toEqual([['6', 'in the transaction']]);
    expect(await preparedNames()).toEqual([]);
  });
});
