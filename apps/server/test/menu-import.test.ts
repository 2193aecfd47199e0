import { probeThrough } from '@canteen-meals/repository-contract';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSqliteAdapters, openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { decideRatingChange } from '@canteen-meals/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { syncRunTimeoutMs } from './support/server-process.js';

// The real CLI process (its compiled build), on a fresh SQLite file per test.
const importCli = fileURLToPath(new URL('../dist/cli/import-meals.js', import.meta.url));
const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));
const sampleFeed = join(examples, 'openmensa-feed.xml');
const folder = mkdtempSync(join(tmpdir(), 'meals-menu-import-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let databases = 0;
function freshDatabase() {
  const path = join(folder, `menu-${++databases}.db`);
  const env: Record<string, string> = { DATABASE_URL: `sqlite:${path}` };
  const run = (args: string[], extraEnv: Record<string, string> = {}) =>
    spawnSync(process.execPath, [importCli, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env, ...extraEnv },
      encoding: 'utf8',
      timeout: syncRunTimeoutMs,
    });
  const withDatabase = async <T>(use: (db: ReturnType<typeof openSqliteDatabase>) => T | Promise<T>): Promise<T> => {
    const db = openSqliteDatabase(path);
    try {
      return await use(db);
    } finally {
      db.close();
    }
  };
  const rows = () =>
    withDatabase((db) =>
      db.prepare<[], { name: string; meal_id: number }>('SELECT name, meal_id FROM meals ORDER BY meal_id').all(),
    );
  const idsByName = async () => Object.fromEntries((await rows()).map((row) => [row.name, row.meal_id]));
  return { path, run, withDatabase, idsByName, rows };
}

function writeFeed(name: string, change: (xml: string) => string): string {
  const path = join(folder, name);
  writeFileSync(path, change(readFileSync(sampleFeed, 'utf8')));
  return path;
}

describe('pnpm meals:import <feed.xml>', () => {
  it('imports the sample feed, then finds nothing to change when it comes again', async () => {
    const { run, withDatabase } = freshDatabase();

    const first = run([sampleFeed]);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('source "Mensa Academica", 6 days, 1 closed, served at 11:00 Europe/Berlin');
    expect(first.stdout).toContain('added 14, updated 0, unchanged 0 (one transaction)');
    expect(first.stdout).toContain('+ #1 2026-03-23 Tellergericht: Currywurst mit Pommes frites');
    expect(first.stdout).toContain('+ #14 2026-03-27 Vegetarisch: Gemüsefrikadellen mit Kartoffelpüree');

    const second = run([sampleFeed]);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('added 0, updated 0, unchanged 14 (one transaction)');
    expect(second.stdout).not.toContain('+ #');

    await withDatabase((db) => {
      expect(db.prepare('SELECT count(*) AS n FROM meals').get()).toEqual({ n: 14 });
      expect(db.prepare('SELECT count(*) AS n FROM meal_sources').get()).toEqual({ n: 14 });
    });
  });

  it('stores what the feed says: served at 11:00 Berlin time, category, notes, prices; rateable', async () => {
    const { run, withDatabase } = freshDatabase();
    run([sampleFeed]);
    const meal = await withDatabase((db) => probeThrough(() => createSqliteAdapters(db).queries).meal(1));
    expect(meal).toEqual({
      id: 1,
      name: 'Currywurst mit Pommes frites',
      servedAt: new Date('2026-03-23T10:00:00Z'),
      rateable: true,
      category: 'Tellergericht',
      notes: ['Schwein', 'Allergene: Senf, Sellerie'],
      prices: { student: '2.60', employee: '4.10', other: '5.20' },
      canteenId: 'default',
      position: 0,
      labels: ['celery', 'mustard', 'pork'],
    });
  });

  it('keeps every other id when one meal is renamed, adds the renamed one, and keeps the old one with its rating', async () => {
    const { run, withDatabase, idsByName } = freshDatabase();
    run([sampleFeed]);
    const before = await idsByName();
    await withDatabase(async (db) => {
      const { ratings, markings } = createSqliteAdapters(db);
      const servedAt = new Date('2026-03-25T10:00:00Z');
      await ratings.change('alice', before['Spaghetti Bolognese']!, (s) =>
        decideRatingChange(s, 5, new Date(servedAt.getTime() + 3600_000)),
      );
      await markings.setMarked('alice', before['Falafel mit Hummus und Couscoussalat']!, true);
    });

    const renamed = writeFeed('renamed.xml', (xml) =>
      xml.replace('<name>Spaghetti Bolognese</name>', '<name>Spaghetti Carbonara</name>'),
    );
    const result = run([renamed]);

    expect(result.status).toBe(0);
    expect(result.stdout).toContain('added 1, updated 0, unchanged 13');
    expect(result.stdout).toContain('+ #15 2026-03-25 Tellergericht: Spaghetti Carbonara');
    expect(result.stdout).toContain('kept 1 meals that the feed no longer lists on their day:');
    expect(result.stdout).toContain(`= #${before['Spaghetti Bolognese']} Tellergericht: Spaghetti Bolognese`);
    const after = await idsByName();
    expect(after).toEqual({ ...before, 'Spaghetti Carbonara': 15 });
    await withDatabase(async (db) => {
      const { queries } = createSqliteAdapters(db);
      expect(await probeThrough(() => queries).rating('alice', before['Spaghetti Bolognese']!)).toBe(5);
      expect(await probeThrough(() => queries).marked('alice', before['Falafel mit Hummus und Couscoussalat']!)).toBe(
        true,
      );
    });
  });

  it('updates a meal whose price changed, in place', async () => {
    const { run, idsByName } = freshDatabase();
    run([sampleFeed]);
    const before = await idsByName();
    const repriced = writeFeed('repriced.xml', (xml) =>
      xml.replace('<price role="student">0.90</price>', '<price role="student">0.95</price>'),
    );
    const result = run([repriced]);
    expect(result.stdout).toContain('added 0, updated 1, unchanged 13');
    expect(result.stdout).toContain(
      `~ #${before['Schokoladenpudding mit Vanillesoße']} Dessert: Schokoladenpudding mit Vanillesoße`,
    );
    expect(await idsByName()).toEqual(before);
  });

  it('reads runs of white space in a feed as one space, so a change only in spacing changes nothing', async () => {
    const { run, idsByName } = freshDatabase();
    run([sampleFeed]);
    const before = await idsByName();
    const respaced = writeFeed('respaced.xml', (xml) =>
      xml.replace('<name>Spaghetti Bolognese</name>', '<name>  Spaghetti \n  Bolognese </name>'),
    );
    const result = run([respaced]);
    expect(result.stdout).toContain('added 0, updated 0, unchanged 14');
    expect(await idsByName()).toEqual(before);
  });

  it('updates the display name in place when only its case or its kind of space changed', async () => {
    const { run, idsByName } = freshDatabase();
    run([sampleFeed]);
    const id = (await idsByName())['Spaghetti Bolognese']!;
    for (const name of ['Spaghetti bolognese', 'Spaghetti\u00a0bolognese']) {
      const renamed = writeFeed('recased.xml', (xml) =>
        xml.replace('<name>Spaghetti Bolognese</name>', `<name>${name}</name>`),
      );
      const result = run([renamed]);
      expect(result.stdout).toContain('added 0, updated 1, unchanged 13');
      expect(result.stdout).toContain(`~ #${id} Tellergericht: ${name}`);
      expect((await idsByName())[name]).toBe(id);
    }
  });

  it('refuses a meal text with a control character, from a feed or a JSON file, and imports nothing', async () => {
    const { run, rows } = freshDatabase();
    run([sampleFeed]);
    const feed = writeFeed('control.xml', (xml) =>
      xml.replace('<name>Spaghetti Bolognese</name>', '<name>Spaghetti&#x85;Bolognese</name>'),
    );
    const fromFeed = run([feed]);
    expect(fromFeed.status).toBe(1);
    expect(fromFeed.stderr).toContain('no control character');
    const json = join(folder, 'control.json');
    const body = JSON.parse(readFileSync(join(examples, 'meals.json'), 'utf8')) as { meals: { name: string }[] };
    body.meals[1]!.name = 'Chili\u0001con Carne';
    writeFileSync(json, JSON.stringify(body));
    const fromJson = run([json]);
    expect(fromJson.status).toBe(1);
    expect(fromJson.stderr).toContain('no control character');
    expect((await rows()).length).toBe(14);
  });

  it('allocates ids above those given through the admin upsert', async () => {
    const { run, rows } = freshDatabase();
    expect(run([join(examples, 'meals.json')]).status).toBe(0);
    run([sampleFeed]);
    const ids = (await rows()).map((row) => row.meal_id);
    expect(ids).toEqual([101, 102, 103, ...Array.from({ length: 14 }, (_, index) => 104 + index)]);
  });

  it('refuses a feed nested 400 000 deep at once with the depth error (read in a thread within a budget), importing nothing', async () => {
    const { run, withDatabase } = freshDatabase();
    run([sampleFeed]);
    const deep = writeFeed('deep.xml', (xml) =>
      xml.replace('<canteen>', `<canteen>${'<a>'.repeat(400_000)}${'</a>'.repeat(400_000)}`),
    );

    const result = run([deep]);

    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^meals:import: not a valid OpenMensa v2 feed:\n {2}line \d+: elements are nested more than 32 deep/,
    );
    await withDatabase((db) => expect(db.prepare('SELECT count(*) AS n FROM meals').get()).toEqual({ n: 14 }));
  });

  it('refuses an invalid feed, naming the line and element, and imports nothing', async () => {
    const { run, withDatabase } = freshDatabase();
    run([sampleFeed]);
    const broken = writeFeed('broken.xml', (xml) =>
      xml
        .replace('<day date="2026-03-27">', '<day date="2026-03-30">')
        .replace('<price role="other">6.40</price>', '<price role="guest">6.40</price>'),
    );

    const result = run([broken]);

    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^meals:import: not a valid OpenMensa v2 feed:\n {2}line \d+, <price>: attribute "role": "guest" is not one of/,
    );
    await withDatabase((db) => {
      expect(db.prepare('SELECT count(*) AS n FROM meals').get()).toEqual({ n: 14 });
      expect(db.prepare("SELECT count(*) AS n FROM meal_sources WHERE served_on = '2026-03-30'").get()).toEqual({
        n: 0,
      });
    });
  });

  it('needs --source for a feed that names no canteen, and imports not rateable with --not-rateable', async () => {
    const { run, withDatabase } = freshDatabase();
    const anonymous = writeFeed('anonymous.xml', (xml) => xml.replace('<name>Mensa Academica</name>', ''));

    const refused = run([anonymous]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('names no canteen (<canteen><name>): pass --canteen <id> or --source <name>');

    const accepted = run([anonymous, '--source', 'academica', '--not-rateable']);
    expect(accepted.stdout).toContain('source "academica"');
    await withDatabase((db) => {
      expect(db.prepare('SELECT count(*) AS n FROM meals WHERE rateable = 0').get()).toEqual({ n: 14 });
      expect(db.prepare('SELECT DISTINCT source FROM meal_sources').all()).toEqual([{ source: 'academica' }]);
    });
  });

  it('serves at SERVICE_START in TZ_NAME', async () => {
    const { run, withDatabase } = freshDatabase();
    const result = run([sampleFeed], { SERVICE_START: '12:15', TZ_NAME: 'America/New_York' });
    expect(result.stdout).toContain('served at 12:15 America/New_York');
    const meal = await withDatabase((db) => probeThrough(() => createSqliteAdapters(db).queries).meal(1));
    expect(meal?.servedAt).toEqual(new Date('2026-03-23T16:15:00Z')); // EDT since 8 March
  });

  it('imports the JSON sample in the admin body format, details included', async () => {
    const { run, withDatabase } = freshDatabase();
    const result = run([join(examples, 'meals.json')]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('upserted 3 meals');
    const meals = await withDatabase((db) =>
      Promise.all([101, 103].map((id) => probeThrough(() => createSqliteAdapters(db).queries).meal(id))),
    );
    expect(meals[0]).toMatchObject({
      category: 'Vegetarisch',
      prices: { student: '2.90', employee: '4.40', other: '5.50' },
    });
    expect(meals[1]).toMatchObject({ name: 'Salatbuffet', rateable: false, category: null, notes: [], prices: {} });
  });

  it.each([
    ['a file of another kind', ['menu.txt'], /expected a \.xml or \.json file/],
    ['feed options with a JSON file', ['meals.json', '--source', 'x'], /apply to OpenMensa feeds \(\.xml\) only/],
    ['no file', [], /usage: pnpm meals:import <feed.xml>/],
  ])('explains its usage for %s', (_, args, message) => {
    const result = freshDatabase().run(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it.each([['--help'], ['-h']])('prints its usage for %s and exits 0', (flag) => {
    const { run, path } = freshDatabase();
    const result = run([flag]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('usage: pnpm meals:import <feed.xml>');
    expect(result.stderr).toBe('');
    expect(existsSync(path)).toBe(false);
  });
});

describe('pnpm meals:import: a failed import leaves no new database behind', () => {
  // A folder that does not exist yet, as ./data does on a fresh clone: neither it nor the file may stay behind.
  const newDatabase = () => {
    const dataFolder = join(folder, `fresh-${++databases}`, 'data');
    const path = join(dataFolder, 'meals.db');
    const run = (args: string[]) =>
      spawnSync(process.execPath, [importCli, ...args], {
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${path}` },
        encoding: 'utf8',
        timeout: syncRunTimeoutMs,
      });
    return { dataFolder, path, run };
  };

  it.each([
    [
      'a feed without <canteen><name> and no --source',
      () => [writeFeed('no-name.xml', (xml) => xml.replace('<name>Mensa Academica</name>', ''))],
    ],
    ['a feed that is not XML', () => [writeFeed('not-xml.xml', () => 'not xml at all')]],
    ['a file that does not exist', () => [join(folder, 'missing.xml')]],
    ['a JSON file that is not JSON', () => [writeFeed('not-json.json', () => '{"meals": [')]],
    [
      'a JSON file the database refuses (a duplicate id, found only inside the transaction)',
      () => {
        const meal = { meal_id: 7, name: 'Soup', served_at: '2026-03-02T11:00:00+01:00', rateable: true };
        return [writeFeed('duplicate.json', () => JSON.stringify({ meals: [meal, meal] }))];
      },
    ],
  ])('%s', (_, args) => {
    const { dataFolder, path, run } = newDatabase();
    const result = run(args());
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^meals:import: /);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(dataFolder)).toBe(false);
  });

  it('keeps a database that existed before, and its folder, when an import into it fails', () => {
    const { dataFolder, path, run } = newDatabase();
    expect(run([sampleFeed]).status).toBe(0);
    const result = run([writeFeed('no-name-2.xml', (xml) => xml.replace('<name>Mensa Academica</name>', ''))]);
    expect(result.status).toBe(1);
    expect(existsSync(path)).toBe(true);
    expect(readdirSync(dataFolder)).toContain('meals.db');
  });
});
