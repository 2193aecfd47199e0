import {
  isNoLabelFilter,
  noLabelFilter,
  type DishId,
  type LabelFilter,
  type PersonPreferences,
  type UserId,
} from '@canteen-meals/domain';
import type { PreferenceRepository } from '@canteen-meals/domain/ports';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { personalPartCacheOf, type PersonalPartCache } from './personal-part-cache.js';
import type { SqliteStorageHealth } from './storage-health.js';

/**
 * The columns of a person's preferences (parameter `$user`), for a statement that selects them beside its own
 * columns `FROM (SELECT 1) ${preferenceJoin}`: the personalized reads ask them with the person's states.
 */
export const preferenceColumns = preferenceColumnsOf('$user');

/** preferenceColumns for the person whose id `user` (a parameter or a column) names. */
function preferenceColumnsOf(user: string): string {
  return `p.without_labels, p.only_labels,
  (SELECT json_group_array(json_array(dish_id, since))
     FROM (SELECT dish_id, since FROM dish_aversions WHERE user_id = ${user} ORDER BY dish_id)) AS aversions`;
}

export const preferenceJoin = 'LEFT JOIN label_preferences p ON p.user_id = $user';

export interface PreferenceRow {
  readonly without_labels: string | null;
  readonly only_labels: string | null;
  readonly aversions: string;
}

export function preferencesFromRow(row: PreferenceRow): PersonPreferences {
  const filter: LabelFilter =
    row.without_labels === null || row.only_labels === null
      ? noLabelFilter
      : { without: JSON.parse(row.without_labels) as string[], only: JSON.parse(row.only_labels) as string[] };
  const aversions = (JSON.parse(row.aversions) as [number, number][]).map(([dishId, since]) => ({
    dishId,
    since: new Date(since),
  }));
  return { filter: { without: [...filter.without], only: [...filter.only] }, aversions };
}

export class SqlitePreferenceRepository implements PreferenceRepository {
  private readonly preferences: Statement<{ user: UserId }, PreferenceRow>;
  private readonly preferencesOfMany: Statement<[string], PreferenceRow & { readonly user_id: UserId }>;
  private readonly putFilter: Statement<[UserId, string, string]>;
  private readonly deleteFilter: Statement<[UserId]>;
  private readonly putAversion: Statement<[UserId, DishId, number]>;
  private readonly deleteAversion: Statement<[UserId, DishId]>;
  private readonly deleteAversions: Statement<[UserId]>;
  private readonly eraseInTransaction: Transaction<(userId: UserId) => { filters: number; aversions: number }>;
  private readonly personalParts: PersonalPartCache<unknown>;

  constructor(
    db: Database,
    private readonly health?: SqliteStorageHealth,
  ) {
    this.preferences = db.prepare(`SELECT ${preferenceColumns} FROM (SELECT 1) ${preferenceJoin}`);
    // The people as a JSON array (one parameter, whatever their number).
    this.preferencesOfMany = db.prepare(
      `SELECT u.value AS user_id, ${preferenceColumnsOf('u.value')}
       FROM json_each(?) AS u LEFT JOIN label_preferences p ON p.user_id = u.value`,
    );
    this.personalParts = personalPartCacheOf(db);
    this.putFilter = db.prepare(`INSERT INTO label_preferences (user_id, without_labels, only_labels) VALUES (?, ?, ?)
      ON CONFLICT (user_id) DO UPDATE SET without_labels = excluded.without_labels, only_labels = excluded.only_labels`);
    this.deleteFilter = db.prepare('DELETE FROM label_preferences WHERE user_id = ?');
    // The first instant stays: avoiding again changes nothing.
    this.putAversion = db.prepare(
      'INSERT INTO dish_aversions (user_id, dish_id, since) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.deleteAversion = db.prepare('DELETE FROM dish_aversions WHERE user_id = ? AND dish_id = ?');
    this.deleteAversions = db.prepare('DELETE FROM dish_aversions WHERE user_id = ?');
    this.eraseInTransaction = db.transaction((userId: UserId) => ({
      filters: this.deleteFilter.run(userId).changes,
      aversions: this.deleteAversions.run(userId).changes,
    }));
  }

  async preferencesOf(userId: UserId): Promise<PersonPreferences> {
    return preferencesFromRow(this.preferences.get({ user: userId })!);
  }

  async preferencesOfUsers(userIds: readonly UserId[]): Promise<ReadonlyMap<UserId, PersonPreferences>> {
    if (userIds.length === 0) return new Map();
    const rows = this.preferencesOfMany.all(JSON.stringify(userIds));
    return new Map(rows.map((row) => [row.user_id, preferencesFromRow(row)] as const));
  }

  async saveFilter(userId: UserId, filter: LabelFilter): Promise<void> {
    const write = () => {
      if (isNoLabelFilter(filter)) this.deleteFilter.run(userId);
      else this.putFilter.run(userId, JSON.stringify(filter.without), JSON.stringify(filter.only));
      this.personalParts.forget(userId);
    };
    this.health === undefined ? write() : this.health.guard(write);
  }

  async avoid(userId: UserId, dishId: DishId, at: Date): Promise<void> {
    const write = () => {
      this.putAversion.run(userId, dishId, at.getTime());
      this.personalParts.forget(userId);
    };
    this.health === undefined ? write() : this.health.guard(write);
  }

  async stopAvoiding(userId: UserId, dishId: DishId): Promise<boolean> {
    const write = () => {
      const changed = this.deleteAversion.run(userId, dishId).changes > 0;
      this.personalParts.forget(userId);
      return changed;
    };
    return this.health === undefined ? write() : this.health.guard(write);
  }

  async eraseAll(userId: UserId): Promise<{ readonly filters: number; readonly aversions: number }> {
    const erase = () => {
      const erased = this.eraseInTransaction.immediate(userId);
      this.personalParts.forget(userId);
      return erased;
    };
    return this.health === undefined ? erase() : this.health.guard(erase);
  }
}
