import {
  isNoLabelFilter,
  noLabelFilter,
  type DishId,
  type LabelFilter,
  type PersonPreferences,
  type UserId,
} from '@canteen-meals/domain';
import type { PreferenceRepository } from '@canteen-meals/domain/ports';
import type { Pool } from 'pg';
import type { PostgresStorageHealth } from './storage-health.js';

const upsertFilter = `INSERT INTO label_preferences (user_id, without_labels, only_labels) VALUES ($1, $2::jsonb, $3::jsonb)
  ON CONFLICT (user_id) DO UPDATE SET without_labels = excluded.without_labels, only_labels = excluded.only_labels`;

// Both in one statement, so an erasure is one unit of work.
const eraseBoth = `WITH filters AS (DELETE FROM label_preferences WHERE user_id = $1 RETURNING 1),
  aversions AS (DELETE FROM dish_aversions WHERE user_id = $1 RETURNING 1)
  SELECT (SELECT count(*) FROM filters)::integer AS filters, (SELECT count(*) FROM aversions)::integer AS aversions`;

/**
 * The columns of a person's preferences (the user id is `$1`), for a statement that selects them beside its own
 * columns `FROM (SELECT 1) AS one ${preferenceJoin}`: the personalized reads ask them with the person's states.
 * Instants travel as epoch milliseconds.
 */
export const preferenceColumns = preferenceColumnsOf('$1');

/** preferenceColumns for the person whose id `user` (a parameter or a column) names. */
function preferenceColumnsOf(user: string): string {
  return `p.without_labels, p.only_labels,
  coalesce((SELECT jsonb_agg(jsonb_build_array(dish_id::text, (extract(epoch FROM since) * 1000)::bigint::text) ORDER BY dish_id)
              FROM dish_aversions WHERE user_id = ${user}), '[]'::jsonb) AS aversions`;
}

const preferencesOfMany = `SELECT u.user_id, ${preferenceColumnsOf('u.user_id')}
  FROM unnest($1::text[]) AS u(user_id) LEFT JOIN label_preferences p ON p.user_id = u.user_id`;

export const preferenceJoin = 'LEFT JOIN label_preferences p ON p.user_id = $1';

export interface PreferenceRow {
  readonly without_labels: string[] | null;
  readonly only_labels: string[] | null;
  readonly aversions: [string, string][];
}

export function preferencesFromRow(row: PreferenceRow): PersonPreferences {
  const filter: LabelFilter =
    row.without_labels === null || row.only_labels === null
      ? noLabelFilter
      : { without: row.without_labels, only: row.only_labels };
  return {
    filter: { without: [...filter.without], only: [...filter.only] },
    aversions: row.aversions.map(([dishId, since]) => ({ dishId: Number(dishId), since: new Date(Number(since)) })),
  };
}

export class PostgresPreferenceRepository implements PreferenceRepository {
  constructor(
    private readonly pool: Pool,
    private readonly health?: PostgresStorageHealth,
  ) {}

  async preferencesOf(userId: UserId): Promise<PersonPreferences> {
    const { rows } = await this.pool.query<PreferenceRow>(
      `SELECT ${preferenceColumns} FROM (SELECT 1) AS one ${preferenceJoin}`,
      [userId],
    );
    return preferencesFromRow(rows[0]!);
  }

  async preferencesOfUsers(userIds: readonly UserId[]): Promise<ReadonlyMap<UserId, PersonPreferences>> {
    if (userIds.length === 0) return new Map();
    const { rows } = await this.pool.query<PreferenceRow & { readonly user_id: UserId }>(preferencesOfMany, [
      [...userIds],
    ]);
    return new Map(rows.map((row) => [row.user_id, preferencesFromRow(row)] as const));
  }

  async saveFilter(userId: UserId, filter: LabelFilter): Promise<void> {
    const write = () =>
      isNoLabelFilter(filter)
        ? this.pool.query('DELETE FROM label_preferences WHERE user_id = $1', [userId])
        : this.pool.query(upsertFilter, [userId, JSON.stringify(filter.without), JSON.stringify(filter.only)]);
    await (this.health === undefined ? write() : this.health.guard(write));
  }

  async avoid(userId: UserId, dishId: DishId, at: Date): Promise<void> {
    const write = () =>
      this.pool.query(
        'INSERT INTO dish_aversions (user_id, dish_id, since) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [userId, dishId, at],
      );
    await (this.health === undefined ? write() : this.health.guard(write));
  }

  async stopAvoiding(userId: UserId, dishId: DishId): Promise<boolean> {
    const write = () =>
      this.pool.query('DELETE FROM dish_aversions WHERE user_id = $1 AND dish_id = $2', [userId, dishId]);
    const { rowCount } = await (this.health === undefined ? write() : this.health.guard(write));
    return (rowCount ?? 0) > 0;
  }

  async eraseAll(userId: UserId): Promise<{ readonly filters: number; readonly aversions: number }> {
    const write = () => this.pool.query<{ filters: number; aversions: number }>(eraseBoth, [userId]);
    const { rows } = await (this.health === undefined ? write() : this.health.guard(write));
    return { filters: rows[0]?.filters ?? 0, aversions: rows[0]?.aversions ?? 0 };
  }
}
