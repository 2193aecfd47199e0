import { createSqliteAdapters } from '@canteen-meals/adapters-sqlite';
import { describe, expect, it } from 'vitest';
import { legacyFilePerTest } from './support/legacy-file.js';

describe('migration 010 (OpenMensa numbers, closed days) on a database that has migrations 001 to 008', () => {
  const { open } = legacyFilePerTest(8, (old) => {
    old.exec(
      `INSERT INTO canteens (canteen_id, name, time_zone) VALUES ('mensa-b', 'Mensa B', 'UTC'), ('academica', 'Academica', 'UTC')`,
    );
  });

  it('numbers the existing canteens 1, 2, ... by id, and each new canteen above the highest', async () => {
    const db = open();
    const { canteens } = createSqliteAdapters(db);
    expect((await canteens.list()).map(({ id, openmensaId }) => [id, openmensaId])).toEqual([
      ['academica', 1],
      ['default', 2],
      ['mensa-b', 3],
    ]);
    const created = await canteens.save({
      id: 'new',
      name: 'New',
      timeZone: 'UTC',
      city: null,
      address: null,
      coordinates: null,
      feeds: [],
    });
    expect(created.ok && created.value.canteen.openmensaId).toBe(4);
    // A row inserted by other SQL without a number gets one from the trigger too.
    db.exec(`INSERT INTO canteens (canteen_id, name, time_zone) VALUES ('by-sql', 'By SQL', 'UTC')`);
    expect((await canteens.find('by-sql'))?.openmensaId).toBe(5);
    expect(() => db.exec(`UPDATE canteens SET openmensa_id = 1 WHERE canteen_id = 'new'`)).toThrow(/UNIQUE/);
    expect(() => db.exec(`UPDATE canteens SET openmensa_id = 0 WHERE canteen_id = 'new'`)).toThrow(/CHECK/);
  });

  it('adds closed_days, whose rows need an existing canteen', async () => {
    const db = open();
    const { closedDays } = createSqliteAdapters(db);
    await closedDays.record('academica', [{ date: '2026-12-24', closed: true }]);
    expect(await closedDays.closedIn('academica', '2026-12-01', '2026-12-31')).toEqual(['2026-12-24']);
    expect(() => db.exec(`INSERT INTO closed_days (canteen_id, day) VALUES ('nowhere', '2026-12-24')`)).toThrow(
      /FOREIGN KEY/,
    );
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });
});
