import type { Canteen, CanteenFeed, CanteenId, CanteenRepository } from '@canteen-meals/domain';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import type { SqliteStorageHealth } from './storage-health.js';

interface CanteenRow {
  canteen_id: string;
  name: string;
  time_zone: string;
  city: string | null;
  address: string | null;
  lat: number | null;
  lng: number | null;
  /** A JSON array of {name, url, schedule}, in the canteen's order. */
  feeds: string;
  /** A JSON object of spelling to label code. */
  note_labels: string;
  /** A JSON array of names. */
  placeholder_names: string;
}

type CanteenParams = [string, string, string, string | null, string | null, number | null, number | null, string, string, string];

const canteenColumns = 'canteen_id, name, time_zone, city, address, lat, lng, feeds, note_labels, placeholder_names';

export class SqliteCanteenRepository implements CanteenRepository {
  private readonly exists: Statement<[CanteenId], 1>;
  private readonly byId: Statement<[CanteenId], CanteenRow>;
  private readonly all: Statement<[], CanteenRow>;
  private readonly saveInTransaction: Transaction<(canteen: Canteen) => { created: boolean }>;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    this.exists = db.prepare<[CanteenId], 1>('SELECT 1 FROM canteens WHERE canteen_id = ?').pluck();
    this.byId = db.prepare(`SELECT ${canteenColumns} FROM canteens WHERE canteen_id = ?`);
    this.all = db.prepare(`SELECT ${canteenColumns} FROM canteens ORDER BY canteen_id`);
    // An UPSERT, not INSERT OR REPLACE: REPLACE deletes the row first, which the meals' foreign key would refuse.
    const upsert = db.prepare<CanteenParams>(`INSERT INTO canteens (${canteenColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (canteen_id) DO UPDATE SET name = excluded.name, time_zone = excluded.time_zone,
        city = excluded.city, address = excluded.address, lat = excluded.lat, lng = excluded.lng, feeds = excluded.feeds,
        note_labels = excluded.note_labels, placeholder_names = excluded.placeholder_names`);
    this.saveInTransaction = db.transaction((canteen: Canteen) => {
      const created = this.exists.get(canteen.id) === undefined;
      upsert.run(...canteenParams(canteen));
      return { created };
    });
  }

  async save(canteen: Canteen): Promise<{ readonly created: boolean }> {
    // IMMEDIATE: no other connection can create the canteen between the read and the write.
    const save = () => this.saveInTransaction.immediate(canteen);
    return this.health === undefined ? save() : this.health.guard(save);
  }

  async find(id: CanteenId): Promise<Canteen | undefined> {
    const row = this.byId.get(id);
    return row === undefined ? undefined : canteenFromRow(row);
  }

  async list(): Promise<readonly Canteen[]> {
    return this.all.all().map(canteenFromRow);
  }
}

function canteenParams(canteen: Canteen): CanteenParams {
  const at = canteen.coordinates;
  // Only the three fields of a feed are stored, whatever else an object passed in carries.
  const feeds = canteen.feeds.map(({ name, url, schedule }) => ({ name, url, schedule }));
  return [canteen.id, canteen.name, canteen.timeZone, canteen.city, canteen.address, at?.lat ?? null, at?.lng ?? null, JSON.stringify(feeds),
    JSON.stringify(canteen.noteLabels ?? {}), JSON.stringify(canteen.placeholderNames ?? [])];
}

function canteenFromRow(row: CanteenRow): Canteen {
  return {
    id: row.canteen_id,
    name: row.name,
    timeZone: row.time_zone,
    city: row.city,
    address: row.address,
    // The table's CHECK keeps lat and lng both set or both null.
    coordinates: row.lat === null || row.lng === null ? null : { lat: row.lat, lng: row.lng },
    // The table's CHECK keeps it a JSON array; only this adapter writes its elements.
    feeds: (JSON.parse(row.feeds) as CanteenFeed[]).map(({ name, url, schedule }) => ({ name, url, schedule })),
    noteLabels: JSON.parse(row.note_labels) as Record<string, string>,
    placeholderNames: JSON.parse(row.placeholder_names) as string[],
  };
}
