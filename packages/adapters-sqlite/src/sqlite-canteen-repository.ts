import {
  accept,
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
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { SqliteAuditWriter } from './sqlite-audit-log.js';
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
  /** Never null once written: the migration numbered every row and a trigger numbers each new one. */
  openmensa_id: number;
  /** A JSON object of spelling to label code. */
  note_labels: string;
  /** A JSON array of names. */
  placeholder_names: string;
}

type CanteenParams = [
  string,
  string,
  string,
  string | null,
  string | null,
  number | null,
  number | null,
  string,
  number | null,
  string,
  string,
];

type SavedCanteen = { readonly created: boolean; readonly canteen: StoredCanteen };
type Saved = Result<SavedCanteen, 'openmensa_id_taken'>;

const canteenColumns =
  'canteen_id, name, time_zone, city, address, lat, lng, feeds, openmensa_id, note_labels, placeholder_names';

export class SqliteCanteenRepository implements CanteenRepository {
  private readonly exists: Statement<[CanteenId], 1>;
  private readonly byId: Statement<[CanteenId], CanteenRow>;
  private readonly all: Statement<[], CanteenRow>;
  private readonly byNumber: Statement<[OpenMensaId], CanteenRow & { archived_at: number | null }>;
  private readonly saveInTransaction: Transaction<
    (canteen: Canteen, audit: AuditNote<SavedCanteen> | undefined) => Saved
  >;
  private readonly archiveInTransaction: Transaction<
    (id: CanteenId, at: Date, audit: AuditNote<{ readonly archivedAt: Date }> | undefined) => number | undefined
  >;
  private readonly allWithArchivedAt: Statement<[], CanteenRow & { archived_at: number | null }>;
  private readonly archiveOnce: Statement<[number, CanteenId], number>;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    this.exists = db.prepare<[CanteenId], 1>('SELECT 1 FROM canteens WHERE canteen_id = ?').pluck();
    // The reads see active canteens only (see CanteenRepository); listWithArchived sees the archived ones.
    this.byId = db.prepare(`SELECT ${canteenColumns} FROM canteens WHERE canteen_id = ? AND archived_at IS NULL`);
    this.all = db.prepare(`SELECT ${canteenColumns} FROM canteens WHERE archived_at IS NULL ORDER BY canteen_id`);
    // Archived or not: numbers stay unique across every canteen.
    this.byNumber = db.prepare(`SELECT ${canteenColumns}, archived_at FROM canteens WHERE openmensa_id = ?`);
    // An UPSERT, not INSERT OR REPLACE: REPLACE deletes the row first, which the meals' foreign key would refuse. A row
    // inserted without a number gets one from the trigger of migration 010; an update without one keeps its own. A
    // saved canteen is active: a PUT restores an archived one.
    const upsert =
      db.prepare<CanteenParams>(`INSERT INTO canteens (${canteenColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (canteen_id) DO UPDATE SET name = excluded.name, time_zone = excluded.time_zone,
        city = excluded.city, address = excluded.address, lat = excluded.lat, lng = excluded.lng, feeds = excluded.feeds,
        note_labels = excluded.note_labels, placeholder_names = excluded.placeholder_names,
        openmensa_id = coalesce(excluded.openmensa_id, canteens.openmensa_id), archived_at = NULL`);
    this.allWithArchivedAt = db.prepare(`SELECT ${canteenColumns}, archived_at FROM canteens ORDER BY canteen_id`);
    // COALESCE: archiving an archived canteen keeps the first instant.
    this.archiveOnce = db
      .prepare<[number, CanteenId], number>(
        'UPDATE canteens SET archived_at = COALESCE(archived_at, ?) WHERE canteen_id = ? RETURNING archived_at',
      )
      .pluck();
    const auditLog = new SqliteAuditWriter(db);
    this.archiveInTransaction = db.transaction(
      (id: CanteenId, at: Date, audit: AuditNote<{ readonly archivedAt: Date }> | undefined) => {
        const archivedAt = this.archiveOnce.get(at.getTime(), id);
        if (archivedAt !== undefined && audit !== undefined)
          auditLog.append(audit({ archivedAt: new Date(archivedAt) }));
        return archivedAt;
      },
    );
    this.saveInTransaction = db.transaction((canteen: Canteen, audit: AuditNote<SavedCanteen> | undefined): Saved => {
      const holder = canteen.openmensaId === undefined ? undefined : this.byNumber.get(canteen.openmensaId);
      if (holder !== undefined && holder.canteen_id !== canteen.id) {
        return refuse('openmensa_id_taken', openMensaIdTakenMessage(holder.openmensa_id, holder.canteen_id));
      }
      const created = this.exists.get(canteen.id) === undefined;
      upsert.run(...canteenParams(canteen));
      const saved = { created, canteen: canteenFromRow(this.byId.get(canteen.id)!) };
      if (audit !== undefined) auditLog.append(audit(saved));
      return accept(saved);
    });
  }

  async save(canteen: Canteen, audit?: AuditNote<SavedCanteen>): Promise<Saved> {
    // IMMEDIATE: no other connection can create the canteen between the read and the write.
    const save = () => this.saveInTransaction.immediate(canteen, audit);
    return this.health === undefined ? save() : this.health.guard(save);
  }

  async find(id: CanteenId): Promise<StoredCanteen | undefined> {
    const row = this.byId.get(id);
    return row === undefined ? undefined : canteenFromRow(row);
  }

  async findByOpenMensaId(openmensaId: OpenMensaId): Promise<StoredCanteen | undefined> {
    const row = this.byNumber.get(openmensaId);
    return row === undefined || row.archived_at !== null ? undefined : canteenFromRow(row);
  }

  async list(): Promise<readonly StoredCanteen[]> {
    return this.all.all().map(canteenFromRow);
  }

  async archive(id: CanteenId, at: Date, audit?: AuditNote<{ readonly archivedAt: Date }>): Promise<Date | undefined> {
    const archive = () => this.archiveInTransaction.immediate(id, at, audit);
    const archivedAt = this.health === undefined ? archive() : this.health.guard(archive);
    return archivedAt === undefined ? undefined : new Date(archivedAt);
  }

  async listWithArchived(): Promise<readonly CanteenRecord[]> {
    return this.allWithArchivedAt.all().map((row) => ({
      ...canteenFromRow(row),
      archivedAt: row.archived_at === null ? null : new Date(row.archived_at),
    }));
  }
}

function canteenParams(canteen: Canteen): CanteenParams {
  const at = canteen.coordinates;
  // Only the three fields of a feed are stored, whatever else an object passed in carries.
  const feeds = canteen.feeds.map(({ name, url, schedule }) => ({ name, url, schedule }));
  const { id, name, timeZone, city, address } = canteen;
  return [
    id,
    name,
    timeZone,
    city,
    address,
    at?.lat ?? null,
    at?.lng ?? null,
    JSON.stringify(feeds),
    canteen.openmensaId ?? null,
    JSON.stringify(canteen.noteLabels ?? {}),
    JSON.stringify(canteen.placeholderNames ?? []),
  ];
}

function canteenFromRow(row: CanteenRow): StoredCanteen {
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
    openmensaId: row.openmensa_id,
    noteLabels: JSON.parse(row.note_labels) as Record<string, string>,
    placeholderNames: JSON.parse(row.placeholder_names) as string[],
  };
}
