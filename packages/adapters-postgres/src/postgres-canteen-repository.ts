import {
  accept,
  defaultCanteenId,
  openMensaIdTakenMessage,
  refuse,
  type AuditNote,
  type Canteen,
  type CanteenFeed,
  type CanteenId,
  type CanteenRecord,
  type OpenMensaId,
  type Result,
  type StoredCanteen,
} from '@canteen-meals/domain';
import type { CanteenRepository } from '@canteen-meals/domain/ports';
import type { Pool } from 'pg';
import type { PostgresStorageHealth } from './storage-health.js';
import { appendAuditRecords } from './postgres-audit-log.js';
import { sqlStateOf, type TransactionRunner } from './transaction.js';

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
  openmensa_id: number;
  note_labels: Record<string, string>;
  placeholder_names: string[];
}

type SavedCanteen = { readonly created: boolean; readonly canteen: StoredCanteen };
type Saved = Result<SavedCanteen, 'openmensa_id_taken'>;

const canteenColumns =
  'canteen_id, name, time_zone, city, address, lat, lng, feeds, openmensa_id, note_labels, placeholder_names';

/**
 * One statement, so no race between two saves of one id; a saved canteen is active (a PUT restores an archived one).
 * `xmax = 0` holds for a freshly inserted row version only:
 * an update through ON CONFLICT leaves the id of the transaction that locked the old row there.
 */
const upsert = `INSERT INTO canteens (${canteenColumns})
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9::integer, canteens_unused_openmensa_id()), $10, $11)
  ON CONFLICT (canteen_id) DO UPDATE SET name = excluded.name, time_zone = excluded.time_zone, city = excluded.city,
    address = excluded.address, lat = excluded.lat, lng = excluded.lng, feeds = excluded.feeds,
    note_labels = excluded.note_labels, placeholder_names = excluded.placeholder_names,
    openmensa_id = coalesce($9::integer, canteens.openmensa_id), archived_at = NULL
  RETURNING (xmax = 0) AS created, ${canteenColumns}`;

/** How often an insert runs again when a concurrent one took the number it was to get. */
const numberRetries = 3;

export class PostgresCanteenRepository implements CanteenRepository {
  constructor(
    private readonly pool: Pool,
    private readonly health?: PostgresStorageHealth,
    /** Where a write with an audit note runs: the change and its entries in one transaction. */
    private readonly transactions?: TransactionRunner,
  ) {}

  async save(canteen: Canteen, audit?: AuditNote<SavedCanteen>): Promise<Saved> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.upsert(canteen, audit);
      } catch (error) {
        if (
          sqlStateOf(error) !== '23505' ||
          (error as { constraint?: string }).constraint !== 'canteens_openmensa_id_key'
        )
          throw error;
        if (canteen.openmensaId !== undefined) {
          const holder = await this.holderOf(canteen.openmensaId);
          // Taken and released again in between: rare enough to let the caller try again.
          if (holder === undefined) throw error;
          return refuse('openmensa_id_taken', openMensaIdTakenMessage(holder.openmensa_id, holder.canteen_id));
        }
        if (attempt >= numberRetries) throw error;
      }
    }
  }

  private async upsert(canteen: Canteen, audit: AuditNote<SavedCanteen> | undefined): Promise<Saved> {
    const { coordinates } = canteen;
    const params = [
      canteen.id,
      canteen.name,
      canteen.timeZone,
      canteen.city,
      canteen.address,
      coordinates?.lat ?? null,
      coordinates?.lng ?? null,
      // Serialized here: pg would send a JavaScript array as a PostgreSQL array, not as JSON. Only the three fields.
      JSON.stringify(canteen.feeds.map(({ name, url, schedule }) => ({ name, url, schedule }))),
      canteen.openmensaId ?? null,
      JSON.stringify(canteen.noteLabels ?? {}),
      JSON.stringify(canteen.placeholderNames ?? []),
    ];
    if (audit !== undefined && this.transactions !== undefined) {
      return this.transactions.run(async (client) => {
        const { rows } = await client.query<CanteenRow & { created: boolean }>(upsert, params);
        const saved = { created: rows[0]!.created, canteen: canteenFromRow(rows[0]!) };
        await appendAuditRecords(client, audit(saved));
        return accept(saved);
      });
    }
    const write = () => this.pool.query<CanteenRow & { created: boolean }>(upsert, params);
    const { rows } = await (this.health === undefined ? write() : this.health.guard(write));
    const row = rows[0]!;
    return accept({ created: row.created, canteen: canteenFromRow(row) });
  }

  async find(id: CanteenId): Promise<StoredCanteen | undefined> {
    const { rows } = await this.pool.query<CanteenRow>(
      `SELECT ${canteenColumns} FROM canteens WHERE canteen_id = $1 AND archived_at IS NULL`,
      [id],
    );
    return rows[0] === undefined ? undefined : canteenFromRow(rows[0]);
  }

  async findByOpenMensaId(openmensaId: OpenMensaId): Promise<StoredCanteen | undefined> {
    const holder = await this.holderOf(openmensaId);
    return holder === undefined || holder.archived_at !== null ? undefined : canteenFromRow(holder);
  }

  /** The canteen with this number, archived or not: numbers stay unique across every canteen. */
  private async holderOf(openmensaId: OpenMensaId): Promise<(CanteenRow & { archived_at: Date | null }) | undefined> {
    const { rows } = await this.pool.query<CanteenRow & { archived_at: Date | null }>(
      `SELECT ${canteenColumns}, archived_at FROM canteens WHERE openmensa_id = $1`,
      [openmensaId],
    );
    return rows[0];
  }

  /** Ordered by the ids' bytes (COLLATE "C"), as the other adapters compare them, whatever the database's collation. */
  async list(): Promise<readonly StoredCanteen[]> {
    const { rows } = await this.pool.query<CanteenRow>(
      `SELECT ${canteenColumns} FROM canteens WHERE archived_at IS NULL ORDER BY canteen_id COLLATE "C"`,
    );
    return rows.map(canteenFromRow);
  }

  async archive(id: CanteenId, at: Date, audit?: AuditNote<{ readonly archivedAt: Date }>): Promise<Date | undefined> {
    // COALESCE in one statement: archiving an archived canteen keeps the first instant, whoever archives at once.
    const archive =
      'UPDATE canteens SET archived_at = COALESCE(archived_at, $1) WHERE canteen_id = $2 RETURNING archived_at';
    if (audit !== undefined && this.transactions !== undefined) {
      return this.transactions.run(async (client) => {
        const archivedAt = (await client.query<{ archived_at: Date }>(archive, [at, id])).rows[0]?.archived_at;
        if (archivedAt !== undefined) await appendAuditRecords(client, audit({ archivedAt }));
        return archivedAt;
      });
    }
    const write = () => this.pool.query<{ archived_at: Date }>(archive, [at, id]);
    const { rows } = await (this.health === undefined ? write() : this.health.guard(write));
    return rows[0]?.archived_at;
  }

  async listWithArchived(): Promise<readonly CanteenRecord[]> {
    const { rows } = await this.pool.query<CanteenRow & { archived_at: Date | null }>(
      `SELECT ${canteenColumns}, archived_at FROM canteens ORDER BY canteen_id COLLATE "C"`,
    );
    return rows.map((row) => ({ ...canteenFromRow(row), archivedAt: row.archived_at }));
  }
}

/** Creates the `default` canteen in `timeZone` unless it exists; an existing one keeps every field. */
export async function ensureDefaultCanteen(pool: Pool, timeZone: string): Promise<void> {
  await pool.query(
    `INSERT INTO canteens (canteen_id, name, time_zone) VALUES ($1, 'Default canteen', $2) ON CONFLICT (canteen_id) DO NOTHING`,
    [defaultCanteenId, timeZone],
  );
}

function canteenFromRow(row: CanteenRow): StoredCanteen {
  return {
    id: row.canteen_id,
    name: row.name,
    timeZone: row.time_zone,
    city: row.city,
    address: row.address,
    coordinates: row.lat === null || row.lng === null ? null : { lat: row.lat, lng: row.lng },
    feeds: row.feeds.map(({ name, url, schedule }) => ({ name, url, schedule })),
    openmensaId: row.openmensa_id,
    noteLabels: row.note_labels,
    placeholderNames: row.placeholder_names,
  };
}
