import { defaultCanteenId, type Canteen, type CanteenFeed, type CanteenId, type CanteenRepository } from '@canteen-meals/domain';
import type { Pool } from 'pg';
import type { PostgresStorageHealth } from './storage-health.js';

interface CanteenRow {
  canteen_id: string;
  name: string;
  time_zone: string;
  city: string | null;
  address: string | null;
  /** double precision arrives as a JavaScript number (pg parses float8), exactly as it was written. */
  lat: number | null;
  lng: number | null;
  /** jsonb arrives parsed (pg parses it); an array keeps its order. */
  feeds: CanteenFeed[];
  note_labels: Record<string, string>;
  placeholder_names: string[];
}

const canteenColumns = 'canteen_id, name, time_zone, city, address, lat, lng, feeds, note_labels, placeholder_names';

/**
 * One statement, so no race between two saves of one id. `xmax = 0` holds for a freshly inserted row version only:
 * an update through ON CONFLICT leaves the id of the transaction that locked the old row there.
 */
const upsert = `INSERT INTO canteens (${canteenColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
  ON CONFLICT (canteen_id) DO UPDATE SET name = excluded.name, time_zone = excluded.time_zone, city = excluded.city,
    address = excluded.address, lat = excluded.lat, lng = excluded.lng, feeds = excluded.feeds,
    note_labels = excluded.note_labels, placeholder_names = excluded.placeholder_names
  RETURNING (xmax = 0) AS created`;

export class PostgresCanteenRepository implements CanteenRepository {
  constructor(
    private readonly pool: Pool,
    private readonly health?: PostgresStorageHealth,
  ) {}

  async save(canteen: Canteen): Promise<{ readonly created: boolean }> {
    const { coordinates } = canteen;
    const write = () =>
      this.pool.query<{ created: boolean }>(upsert, [
        canteen.id,
        canteen.name,
        canteen.timeZone,
        canteen.city,
        canteen.address,
        coordinates?.lat ?? null,
        coordinates?.lng ?? null,
        // Serialized here: pg would send a JavaScript array as a PostgreSQL array, not as JSON. Only the three fields.
        JSON.stringify(canteen.feeds.map(({ name, url, schedule }) => ({ name, url, schedule }))),
        JSON.stringify(canteen.noteLabels ?? {}),
        JSON.stringify(canteen.placeholderNames ?? []),
      ]);
    const { rows } = await (this.health === undefined ? write() : this.health.guard(write));
    return { created: rows[0]?.created === true };
  }

  async find(id: CanteenId): Promise<Canteen | undefined> {
    const { rows } = await this.pool.query<CanteenRow>(`SELECT ${canteenColumns} FROM canteens WHERE canteen_id = $1`, [id]);
    return rows[0] === undefined ? undefined : canteenFromRow(rows[0]);
  }

  /** Ordered by the ids' bytes (COLLATE "C"), as the other adapters compare them, whatever the database's collation. */
  async list(): Promise<readonly Canteen[]> {
    const { rows } = await this.pool.query<CanteenRow>(`SELECT ${canteenColumns} FROM canteens ORDER BY canteen_id COLLATE "C"`);
    return rows.map(canteenFromRow);
  }
}

/** Creates the `default` canteen in `timeZone` unless it exists; an existing one keeps every field. */
export async function ensureDefaultCanteen(pool: Pool, timeZone: string): Promise<void> {
  await pool.query(
    `INSERT INTO canteens (canteen_id, name, time_zone) VALUES ($1, 'Default canteen', $2) ON CONFLICT (canteen_id) DO NOTHING`,
    [defaultCanteenId, timeZone],
  );
}

function canteenFromRow(row: CanteenRow): Canteen {
  return {
    id: row.canteen_id,
    name: row.name,
    timeZone: row.time_zone,
    city: row.city,
    address: row.address,
    coordinates: row.lat === null || row.lng === null ? null : { lat: row.lat, lng: row.lng },
    feeds: row.feeds.map(({ name, url, schedule }) => ({ name, url, schedule })),
    noteLabels: row.note_labels,
    placeholderNames: row.placeholder_names,
  };
}
