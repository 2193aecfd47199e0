import { loadMigrations, migrate, migrationLockKey, openPostgres } from '@canteen-meals/adapters-postgres';
import pg from 'pg';
import { neverFetched } from '@canteen-meals/domain';
import { MealMother, probeThrough, readAt } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import { databasePerFile } from './support/test-database.js';

const databaseUrl = databasePerFile();
const legacyDatabaseUrl = databasePerFile();
const preCanteenDatabaseUrl = databasePerFile();
const freshDatabaseUrl = databasePerFile();
const preDishDatabaseUrl = databasePerFile();
const preFeedDatabaseUrl = databasePerFile();
const preMarkingIndexDatabaseUrl = databasePerFile();
const preFeedFailuresDatabaseUrl = databasePerFile();

describe('PostgreSQL migrations', () => {
  it('finds the versioned SQL files in order', () => {
    const migrations = loadMigrations();
    expect(migrations[0]).toMatchObject({ version: 1, name: 'initial' });
    expect(migrations.map((m) => m.version)).toEqual([...migrations.map((m) => m.version)].sort((a, b) => a - b));
  });

  it('applies each migration exactly once when several instances start at the same moment', async () => {
    const opened = await Promise.all(Array.from({ length: 4 }, () => openPostgres(databaseUrl(), { poolSize: 2 })));
    try {
      const [first] = opened;
      const { rows } = await first!.pool.query<{ version: number; name: string }>(
        'SELECT version, name FROM schema_migrations ORDER BY version',
      );
      expect(rows).toEqual(loadMigrations().map(({ version, name }) => ({ version, name })));
      // Every instance works on the same, complete schema.
      await first!.adapters.meals.upsertMany([MealMother.servedAt(new Date(), { id: 1, name: 'Soup' })]);
      for (const instance of opened) expect(await instance.adapters.meals.count()).toBe(1);
      // A later start has nothing left to apply.
      expect(await migrate(first!.pool)).toEqual([]);
    } finally {
      await Promise.all(opened.map((instance) => instance.close()));
    }
  });

  it('waits for the advisory lock that another instance holds', async () => {
    const holder = new pg.Client({ connectionString: databaseUrl() });
    await holder.connect();
    const pool = new pg.Pool({ connectionString: databaseUrl(), max: 2 });
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [migrationLockKey.toString()]);
      let finished = false;
      const migrating = migrate(pool).then((applied) => {
        finished = true;
        return applied;
      });
      // The migration blocks on the lock: it shows up in pg_locks as waiting, and has not finished.
      await expect.poll(async () => waitingForAdvisoryLock(holder), { timeout: 10_000 }).toBe(true);
      expect(finished).toBe(false);
      await holder.query('SELECT pg_advisory_unlock($1)', [migrationLockKey.toString()]);
      expect(await migrating).toEqual([]);
    } finally {
      await holder.end();
      await pool.end();
    }
  });

  it('refuses a broken migration and records nothing of it', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl(), max: 2 });
    try {
      const broken = [
        { version: 900, name: 'broken', sql: 'CREATE TABLE half_done (x int); SELECT no_such_column FROM meals;' },
      ];
      await expect(migrate(pool, broken)).rejects.toThrow(/migration 900-broken failed/);
      const { rows } = await pool.query(
        "SELECT to_regclass('half_done') AS t, (SELECT count(*) FROM schema_migrations WHERE version = 900)::int AS n",
      );
      expect(rows[0]).toEqual({ t: null, n: 0 });
    } finally {
      await pool.end();
    }
  });
});

describe('PostgreSQL migration 002 (meal details, meal sources) on a database at version 1', () => {
  it('upgrades it in place: meals keep their ratings and markings and get the default details', async () => {
    const pool = new pg.Pool({ connectionString: legacyDatabaseUrl(), max: 1 });
    try {
      expect(
        await migrate(
          pool,
          loadMigrations().filter((m) => m.version === 1),
        ),
      ).toEqual([1]);
      await pool.query(
        `INSERT INTO meals (meal_id, name, served_at, rateable, rated_4) VALUES (7, 'Ramen', now(), true, 1)`,
      );
      await pool.query(`INSERT INTO ratings VALUES (7, 'alice', 4)`);
      await pool.query(`INSERT INTO markings VALUES ('bob', 7)`);
    } finally {
      await pool.end();
    }

    const upgraded = await openPostgres(legacyDatabaseUrl(), { poolSize: 1 });
    try {
      const { meals, queries } = upgraded.adapters;
      expect(await probeThrough(() => queries).meal(7)).toMatchObject({
        name: 'Ramen',
        category: null,
        notes: [],
        prices: {},
      });
      expect(await probeThrough(() => queries).rating('alice', 7)).toBe(4);
      expect(await probeThrough(() => queries).histogram(7)).toEqual([0, 0, 0, 1, 0]);
      expect(await probeThrough(() => queries).marked('bob', 7)).toBe(true);
      // Names may now have 250 characters, and no more.
      await meals.upsertMany([{ id: 7, name: 'x'.repeat(250), servedAt: new Date(), rateable: true }]);
      await expect(
        meals.upsertMany([{ id: 8, name: 'x'.repeat(251), servedAt: new Date(), rateable: true }]),
      ).rejects.toMatchObject({
        code: '23514',
      });
    } finally {
      await upgraded.close();
    }
  });
});

describe('PostgreSQL migration 003 (canteens) on a database at version 2', () => {
  const servedAt = new Date('2025-03-10T11:30:00.000Z');

  it('puts every meal into the `default` canteen, created in the given zone, and loses nothing', async () => {
    const pool = new pg.Pool({ connectionString: preCanteenDatabaseUrl(), max: 1 });
    try {
      expect(
        await migrate(
          pool,
          loadMigrations().filter((m) => m.version <= 2),
        ),
      ).toEqual([1, 2]);
      await pool.query(
        `INSERT INTO meals (meal_id, name, served_at, rateable, category, notes, price_student, rated_2, rated_5)
         VALUES (7, 'Ramen', $1, true, 'Ausgabe A', '["vegan"]', '2.60', 1, 1), (8, 'Soup', $1, false, NULL, '[]', NULL, 0, 0)`,
        [servedAt],
      );
      await pool.query(`INSERT INTO ratings VALUES (7, 'alice', 5), (7, 'bob', 2)`);
      await pool.query(`INSERT INTO markings VALUES ('bob', 7), ('carol', 8)`);
      await pool.query(`INSERT INTO meal_sources VALUES ('key-8', 8, 'feed', '2025-03-10')`);
    } finally {
      await pool.end();
    }

    const upgraded = await openPostgres(preCanteenDatabaseUrl(), { poolSize: 1, defaultTimeZone: 'Europe/Berlin' });
    try {
      const { canteens, queries, meals } = upgraded.adapters;
      expect(await canteens.list()).toEqual([
        {
          id: 'default',
          name: 'Default canteen',
          timeZone: 'Europe/Berlin',
          city: null,
          address: null,
          coordinates: null,
          feeds: [],
          openmensaId: 1,
          noteLabels: {},
          placeholderNames: [],
        },
      ]);
      const probe = probeThrough(() => queries);
      expect(await probe.meal(7)).toEqual({
        id: 7,
        name: 'Ramen',
        servedAt,
        rateable: true,
        category: 'Ausgabe A',
        notes: ['vegan'],
        prices: { student: '2.60' },
        canteenId: 'default',
        position: 0,
        // Migration 012: meals written before labels carry none until written again.
        labels: [],
      });
      expect(await probe.meal(8)).toMatchObject({ canteenId: 'default', position: 0, rateable: false });
      expect(await probe.histogram(7)).toEqual([0, 1, 0, 0, 1]);
      expect(await probe.rating('alice', 7)).toBe(5);
      expect(await probe.rating('bob', 7)).toBe(2);
      expect(await probe.marked('bob', 7)).toBe(true);
      expect(await probe.marked('carol', 8)).toBe(true);
      const sources = await upgraded.pool.query('SELECT source_key, meal_id::int AS meal_id FROM meal_sources');
      expect(sources.rows).toEqual([{ source_key: 'key-8', meal_id: 8 }]);
      const window = { canteenId: 'default', from: servedAt, until: new Date(servedAt.getTime() + 1) };
      expect((await queries.viewsServedIn('alice', [window], readAt)).map((view) => view.meal.id)).toEqual([7, 8]);
      expect(await meals.count()).toBe(2);

      // What the schema itself refuses, whoever writes.
      const refused = (sql: string) =>
        expect(upgraded.pool.query(sql)).rejects.toMatchObject({ code: expect.stringMatching(/^23/) });
      await refused(`UPDATE meals SET canteen_id = 'nowhere' WHERE meal_id = 7`);
      await refused(`UPDATE meals SET position = 10000 WHERE meal_id = 7`);
      await refused(`UPDATE meals SET position = -1 WHERE meal_id = 7`);
      await refused(`INSERT INTO canteens (canteen_id, name, time_zone) VALUES ('Upper', 'x', 'UTC')`);
      await refused(`INSERT INTO canteens (canteen_id, name, time_zone) VALUES ('${'a'.repeat(65)}', 'x', 'UTC')`);
      await refused(`INSERT INTO canteens (canteen_id, name, time_zone, lat) VALUES ('half', 'x', 'UTC', 1)`);
      await refused(
        `INSERT INTO canteens (canteen_id, name, time_zone, lat, lng) VALUES ('north', 'x', 'UTC', 90.5, 0)`,
      );
      await refused(
        `INSERT INTO canteens (canteen_id, name, time_zone, lat, lng) VALUES ('nan', 'x', 'UTC', 'NaN', 0)`,
      );
      await refused(
        `INSERT INTO canteens (canteen_id, name, time_zone, lat, lng) VALUES ('east', 'x', 'UTC', 0, -180.1)`,
      );
      await refused(`INSERT INTO canteens (canteen_id, name, time_zone) VALUES ('nameless', '', 'UTC')`);
      await refused(`DELETE FROM canteens WHERE canteen_id = 'default'`);
    } finally {
      await upgraded.close();
    }

    // Opened again with another zone: the existing `default` canteen keeps its own, and nothing is left to migrate.
    const reopened = await openPostgres(preCanteenDatabaseUrl(), { poolSize: 1, defaultTimeZone: 'Asia/Tokyo' });
    try {
      expect((await reopened.adapters.canteens.find('default'))?.timeZone).toBe('Europe/Berlin');
      expect(await migrate(reopened.pool)).toEqual([]);
    } finally {
      await reopened.close();
    }
  });

  it('creates the `default` canteen in a fresh database with the given zone, UTC without one', async () => {
    const newYork = await openPostgres(freshDatabaseUrl(), { poolSize: 1, defaultTimeZone: 'America/New_York' });
    try {
      expect((await newYork.adapters.canteens.find('default'))?.timeZone).toBe('America/New_York');
      // A `default` canteen that went missing (no meal references it) is created again at the next open.
      await newYork.pool.query(`DELETE FROM canteens`);
    } finally {
      await newYork.close();
    }
    const utc = await openPostgres(freshDatabaseUrl(), { poolSize: 1 });
    try {
      expect((await utc.adapters.canteens.find('default'))?.timeZone).toBe('UTC');
    } finally {
      await utc.close();
    }
  });

  it('refuses a default time zone the runtime does not know, before connecting', async () => {
    await expect(
      openPostgres('postgres://nobody@127.0.0.1:1/none', { defaultTimeZone: 'Mars/Olympus' }),
    ).rejects.toThrow(/not an IANA time zone/);
  });
});

describe('PostgreSQL migration 004 (dishes) on a database at version 3', () => {
  const servedAt = new Date('2025-03-10T11:30:00.000Z');
  const week = 7 * 24 * 60 * 60 * 1000;

  it('puts every meal into its dish, adds up the histograms, and loses nothing', async () => {
    const pool = new pg.Pool({ connectionString: preDishDatabaseUrl(), max: 1 });
    try {
      expect(
        await migrate(
          pool,
          loadMigrations().filter((m) => m.version <= 3),
        ),
      ).toEqual([1, 2, 3]);
      await pool.query(`INSERT INTO canteens (canteen_id, name, time_zone) VALUES ('bistro', 'Bistro', 'UTC')`);
      // 9 and 7 differ only in case and spacing: one dish, named after the lower id's spelling; 8 is served elsewhere.
      await pool.query(
        `INSERT INTO meals (meal_id, name, served_at, rateable, canteen_id, category, rated_2, rated_5)
         VALUES (9, 'chili  CON carne', $1, true, 'default', NULL, 1, 0),
                (7, 'Chili con Carne', $2, true, 'default', 'Ausgabe A', 0, 2),
                (8, 'Chili con Carne', $1, true, 'bistro', NULL, 0, 0),
                (10, 'Soup', $2, false, 'default', NULL, 0, 0)`,
        [servedAt, new Date(servedAt.getTime() - week)],
      );
      await pool.query(`INSERT INTO ratings VALUES (7, 'alice', 5), (7, 'bob', 5), (9, 'carol', 2)`);
      await pool.query(`INSERT INTO markings VALUES ('bob', 7), ('carol', 10)`);
      await pool.query(`INSERT INTO meal_sources VALUES ('key-9', 9, 'feed', '2025-03-10')`);
    } finally {
      await pool.end();
    }

    const upgraded = await openPostgres(preDishDatabaseUrl(), { poolSize: 2 });
    try {
      const { queries, userData, dishQueries, meals } = upgraded.adapters;
      const asOf = new Date(servedAt.getTime() + week);
      const views = new Map(
        (await queries.viewsByIds('nobody', [7, 8, 9, 10], asOf)).map((view) => [view.meal.id, view]),
      );
      const chili = views.get(7)!.dish;
      expect(views.get(9)!.dish).toEqual(chili);
      expect(chili).toMatchObject({
        canteenId: 'default',
        name: 'Chili con Carne',
        histogram: [0, 1, 0, 0, 2],
        timesServed: 2,
        lastServedAt: servedAt,
      });
      expect(views.get(8)!.dish).toMatchObject({
        canteenId: 'bistro',
        name: 'Chili con Carne',
        histogram: [0, 0, 0, 0, 0],
      });
      expect(views.get(8)!.dish.id).not.toBe(chili.id);
      expect(views.get(10)!.dish).toMatchObject({ name: 'Soup', histogram: [0, 0, 0, 0, 0], timesServed: 1 });
      expect((await dishQueries.dish(chili.id, null, asOf))?.names).toEqual(['Chili con Carne']);
      // The meals themselves, their histograms, ratings, markings and source keys are as they were.
      expect(views.get(7)).toMatchObject({
        meal: { name: 'Chili con Carne', category: 'Ausgabe A' },
        histogram: [0, 0, 0, 0, 2],
      });
      expect(views.get(9)).toMatchObject({ meal: { name: 'chili  CON carne' }, histogram: [0, 1, 0, 0, 0] });
      expect((await userData.exportAll('bob')).markings.map((meal) => meal.id)).toEqual([7]);
      expect((await userData.exportAll('carol')).ratings.map(({ meal, rating }) => [meal.id, rating])).toEqual([
        [9, 2],
      ]);
      const sources = await upgraded.pool.query('SELECT source_key, meal_id::int AS meal_id FROM meal_sources');
      expect(sources.rows).toEqual([{ source_key: 'key-9', meal_id: 9 }]);
      expect(await meals.count()).toBe(4);
      const unplaced = await upgraded.pool.query('SELECT count(*)::int AS n FROM meals WHERE dish_id IS NULL');
      expect(unplaced.rows[0]).toEqual({ n: 0 });

      // A later write of the same name, spelled otherwise, lands in the backfilled dish.
      await meals.upsertMany([{ id: 11, name: 'CHILI CON CARNE', servedAt: asOf, rateable: true }]);
      expect((await queries.viewsByIds('nobody', [11], asOf))[0]?.dish.id).toBe(chili.id);
      // What the schema itself refuses: a meal in a dish of another canteen, a histogram below zero.
      const refused = (sql: string) =>
        expect(upgraded.pool.query(sql)).rejects.toMatchObject({ code: expect.stringMatching(/^23/) });
      await refused(`UPDATE meals SET dish_id = ${views.get(8)!.dish.id} WHERE meal_id = 7`);
      await refused(`UPDATE dishes SET rated_1 = -1 WHERE dish_id = ${chili.id}`);
    } finally {
      await upgraded.close();
    }

    // The backfill is done: opening again places nothing and changes no histogram.
    const reopened = await openPostgres(preDishDatabaseUrl(), { poolSize: 1 });
    try {
      const { rows } = await reopened.pool.query(
        'SELECT dish_id::int AS id, rated_2, rated_5 FROM dishes ORDER BY dish_id',
      );
      expect(rows.filter((row) => row.rated_2 + row.rated_5 > 0)).toEqual([
        { id: expect.any(Number), rated_2: 1, rated_5: 2 },
      ]);
      expect(await migrate(reopened.pool)).toEqual([]);
    } finally {
      await reopened.close();
    }
  });
});

describe('PostgreSQL migration 005 (feeds) on a database at version 4', () => {
  const servedAt = new Date('2025-03-10T11:30:00.000Z');

  it('keeps every canteen, now with no feeds, and every meal with its ratings, markings and dish', async () => {
    const pool = new pg.Pool({ connectionString: preFeedDatabaseUrl(), max: 1 });
    try {
      expect(
        await migrate(
          pool,
          loadMigrations().filter((m) => m.version <= 4),
          { defaultTimeZone: 'Europe/Berlin' },
        ),
      ).toEqual([1, 2, 3, 4]);
      await pool.query(
        `INSERT INTO canteens (canteen_id, name, time_zone, city, address, lat, lng) VALUES ('bistro', 'Bistro', 'UTC', 'Aachen', 'Pontwall 3', 50.5, 6.25)`,
      );
      await pool.query(
        `INSERT INTO meals (meal_id, name, served_at, rateable, canteen_id, position, rated_4) VALUES (7, 'Ramen', $1, true, 'bistro', 2, 1)`,
        [servedAt],
      );
      await pool.query(`INSERT INTO ratings VALUES (7, 'alice', 4)`);
      await pool.query(`INSERT INTO markings VALUES ('bob', 7)`);
    } finally {
      await pool.end();
    }

    const upgraded = await openPostgres(preFeedDatabaseUrl(), { poolSize: 1 });
    try {
      const { canteens, queries, meals, feedStates } = upgraded.adapters;
      expect(await canteens.list()).toEqual([
        {
          id: 'bistro',
          name: 'Bistro',
          timeZone: 'UTC',
          city: 'Aachen',
          address: 'Pontwall 3',
          coordinates: { lat: 50.5, lng: 6.25 },
          feeds: [],
          openmensaId: 1,
          noteLabels: {},
          placeholderNames: [],
        },
        {
          id: 'default',
          name: 'Default canteen',
          timeZone: 'Europe/Berlin',
          city: null,
          address: null,
          coordinates: null,
          feeds: [],
          openmensaId: 2,
          noteLabels: {},
          placeholderNames: [],
        },
      ]);
      const probe = probeThrough(() => queries);
      expect(await meals.count()).toBe(1);
      expect(await probe.meal(7)).toMatchObject({ name: 'Ramen', servedAt, canteenId: 'bistro', position: 2 });
      expect(await probe.histogram(7)).toEqual([0, 0, 0, 1, 0]);
      expect(await probe.rating('alice', 7)).toBe(4);
      expect(await probe.marked('bob', 7)).toBe(true);
      expect((await queries.viewsByIds('alice', [7], servedAt))[0]?.dish).toMatchObject({
        canteenId: 'bistro',
        name: 'Ramen',
        histogram: [0, 0, 0, 1, 0],
      });
      const { rows } = await upgraded.pool.query(
        `SELECT (SELECT count(*) FROM feed_states)::int AS states, (SELECT name FROM schema_migrations WHERE version = 5) AS name`,
      );
      expect(rows[0]).toEqual({ states: 0, name: 'feeds' });

      // It goes on working: a canteen takes feeds, a feed keeps its state.
      const feeds = [{ name: 'full', url: 'https://bistro.example/full.xml', schedule: '0 6 * * *' }];
      await canteens.save({ ...(await canteens.find('bistro'))!, feeds });
      expect((await canteens.find('bistro'))?.feeds).toEqual(feeds);
      await feedStates.save(neverFetched('bistro', 'full'));
      expect(await feedStates.list('bistro')).toEqual([neverFetched('bistro', 'full')]);

      // What the schema itself refuses, whoever writes.
      const refused = (sql: string) =>
        expect(upgraded.pool.query(sql)).rejects.toMatchObject({ code: expect.stringMatching(/^23/) });
      await refused(`UPDATE canteens SET feeds = '{}' WHERE canteen_id = 'bistro'`);
      await refused(`UPDATE canteens SET feeds = NULL WHERE canteen_id = 'bistro'`);
      await refused(`INSERT INTO feed_states (canteen_id, feed_name) VALUES ('nowhere', 'full')`);
      await refused(`INSERT INTO feed_states (canteen_id, feed_name) VALUES ('bistro', 'Full')`);
      await refused(`INSERT INTO feed_states (canteen_id, feed_name) VALUES ('bistro', '${'a'.repeat(33)}')`);
      await refused(`INSERT INTO feed_states (canteen_id, feed_name, outcome) VALUES ('bistro', 'today', 'skipped')`);
      await refused(`INSERT INTO feed_states (canteen_id, feed_name, added, changed) VALUES ('bistro', 'today', 1, 0)`);
      await refused(`INSERT INTO feed_states (canteen_id, feed_name, duration_ms) VALUES ('bistro', 'today', -1)`);
    } finally {
      await upgraded.close();
    }
  });
});

describe('PostgreSQL migration 006 (markings by meal) on a database at version 5', () => {
  const servedAt = new Date('2025-03-10T11:30:00.000Z');

  it('keeps every marking, and counts them per meal and per dish from the new index', async () => {
    const pool = new pg.Pool({ connectionString: preMarkingIndexDatabaseUrl(), max: 1 });
    try {
      expect(
        await migrate(
          pool,
          loadMigrations().filter((m) => m.version <= 5),
        ),
      ).toEqual([1, 2, 3, 4, 5]);
      // Meals as version 5 held them before their dishes were assigned: the open below assigns them (backfill).
      await pool.query(
        `INSERT INTO meals (meal_id, name, served_at, rateable, canteen_id, position) VALUES
          (7, 'Ramen', $1, true, 'default', 0), (8, 'ramen', $2, true, 'default', 0)`,
        [servedAt, new Date(servedAt.getTime() + 86_400_000)],
      );
      await pool.query(`INSERT INTO markings VALUES ('alice', 7), ('bob', 7), ('alice', 8)`);
    } finally {
      await pool.end();
    }

    const upgraded = await openPostgres(preMarkingIndexDatabaseUrl(), { poolSize: 1 });
    try {
      const { queries, dishQueries, markings } = upgraded.adapters;
      const { rows } = await upgraded.pool.query(
        `SELECT indexdef, (SELECT name FROM schema_migrations WHERE version = 6) AS name FROM pg_indexes WHERE indexname = 'markings_by_meal'`,
      );
      expect(rows).toEqual([
        {
          indexdef: expect.stringMatching(/ON public\.markings USING btree \(meal_id, user_id\)$/),
          name: 'markings-by-meal',
        },
      ]);
      expect(await probeThrough(() => queries).marked('bob', 7)).toBe(true);
      expect(await queries.markingCounts([7, 8, 9])).toEqual(
        new Map([
          [7, 2],
          [8, 1],
        ]),
      );
      const dish = (await queries.viewsByIds('alice', [7], servedAt))[0]!.dish.id;
      expect(await dishQueries.markingCounts([dish])).toEqual(new Map([[dish, 2]]));

      // Among many users' markings, the planner reaches those of one meal by the index, not by reading them all.
      await upgraded.pool.query(`INSERT INTO markings SELECT 'user-' || n, 7 FROM generate_series(1, 5000) AS n`);
      await upgraded.pool.query('ANALYZE markings');
      const plan = await upgraded.pool.query<{ 'QUERY PLAN': string }>(
        'EXPLAIN SELECT meal_id, count(*) FROM markings WHERE meal_id = ANY ($1::bigint[]) GROUP BY meal_id',
        [[8]],
      );
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/markings_by_meal/);
      expect(await queries.markingCounts([7, 8])).toEqual(
        new Map([
          [7, 5002],
          [8, 1],
        ]),
      );

      // It goes on working.
      await markings.setMarked('carol', 8, true);
      expect(await queries.markingCounts([8])).toEqual(new Map([[8, 2]]));
    } finally {
      await upgraded.close();
    }
  });
});

describe('PostgreSQL migration 010 (feed failures) on a database at version 9', () => {
  it('counts a feed whose last attempt failed as failed once (so it is retried soon), the others as never', async () => {
    const pool = new pg.Pool({ connectionString: preFeedFailuresDatabaseUrl(), max: 1 });
    const six = new Date('2026-07-30T06:00:00.000Z');
    try {
      expect(
        await migrate(
          pool,
          loadMigrations().filter((m) => m.version <= 9),
        ),
      ).toEqual([1, 2, 3, 4, 5, 6, 8, 9]);
      await pool.query(
        `UPDATE canteens SET feeds = '[{"name":"full","url":"https://mensa.example/full.xml","schedule":"0 6 * * *"},{"name":"today","url":"https://mensa.example/today.xml","schedule":"0 6 * * *"}]'
         WHERE canteen_id = 'default'`,
      );
      await pool.query(
        `INSERT INTO feed_states (canteen_id, feed_name, last_attempt_at, last_success_at, http_status, outcome, last_error)
         VALUES ('default', 'full', $1, NULL, 503, 'failed', 'HTTP 503'), ('default', 'today', $1, $1, 200, 'imported', NULL)`,
        [six],
      );
    } finally {
      await pool.end();
    }

    const upgraded = await openPostgres(preFeedFailuresDatabaseUrl(), { poolSize: 1 });
    try {
      const { feedStates } = upgraded.adapters;
      expect(
        (await feedStates.list('default')).map((state) => [state.feedName, state.outcome, state.failures]),
      ).toEqual([
        ['full', 'failed', 1],
        ['today', 'imported', 0],
      ]);
      const { rows } = await upgraded.pool.query('SELECT name FROM schema_migrations WHERE version = 10');
      expect(rows).toEqual([{ name: 'feed-failures' }]);
      await expect(
        upgraded.pool.query(`UPDATE feed_states SET failures = -1 WHERE feed_name = 'full'`),
      ).rejects.toMatchObject({ code: '23514' });
      // It goes on working: a feed forgotten is gone.
      await feedStates.forget('default', 'full');
      expect((await feedStates.list('default')).map((state) => state.feedName)).toEqual(['today']);
    } finally {
      await upgraded.close();
    }
  });
});

async function waitingForAdvisoryLock(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks
     WHERE locktype = 'advisory' AND NOT granted
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return rows[0]!.n > 0;
}
