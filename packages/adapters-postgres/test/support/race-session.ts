import pg from 'pg';
import { afterEach, beforeEach } from 'vitest';

/**
 * For tests that drive races step by step: before each test the menu tables are emptied (through `pool`) and a
 * session of the test's own is opened, which holds row locks (BEGIN, not committed) while the writers it holds back
 * wait for them; it is closed after the test. Returns that session.
 */
export function raceSessionPerTest(databaseUrl: () => string, pool: () => pg.Pool): () => pg.Client {
  let holder: pg.Client | undefined;
  beforeEach(async () => {
    await pool().query('TRUNCATE ratings, markings, meal_sources, meals, dish_names, dishes');
    holder = new pg.Client({ connectionString: databaseUrl() });
    await holder.connect();
  });
  afterEach(async () => {
    await holder?.end();
    holder = undefined;
  });
  return () => {
    if (holder === undefined) throw new Error('the race session is open only while a test runs');
    return holder;
  };
}
