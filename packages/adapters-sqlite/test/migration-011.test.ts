import { createSqliteAdapters } from '@canteen-meals/adapters-sqlite';
import { describe, expect, it } from 'vitest';
import { legacyFilePerTest } from './support/legacy-file.js';

const archivedAt = new Date('2026-03-02T09:15:30.123Z');

describe('migration 011 (archived canteens) on a database that has the migrations before it', () => {
  const { open } = legacyFilePerTest(10, (old) => {
    old.exec(
      `INSERT INTO canteens (canteen_id, name, time_zone, feeds) VALUES ('mensa', 'Mensa', 'Europe/Berlin', '[]');`,
    );
  });

  it('keeps every canteen active, and then archives and restores one', async () => {
    const db = open();
    const { canteens } = createSqliteAdapters(db);
    expect((await canteens.listWithArchived()).map((canteen) => [canteen.id, canteen.archivedAt])).toEqual([
      ['default', null],
      ['mensa', null],
    ]);
    expect(db.prepare('SELECT version, name FROM schema_migrations WHERE version = 11').get()).toEqual({
      version: 11,
      name: 'canteen-archive',
    });
    expect(await canteens.archive('mensa', archivedAt)).toEqual(archivedAt);
    expect(db.prepare("SELECT archived_at FROM canteens WHERE canteen_id = 'mensa'").pluck().get()).toBe(
      archivedAt.getTime(),
    );
    expect(() => db.prepare("UPDATE canteens SET archived_at = -1 WHERE canteen_id = 'mensa'").run()).toThrow(/CHECK/);
    expect((await canteens.list()).map((canteen) => canteen.id)).toEqual(['default']);
  });
});
