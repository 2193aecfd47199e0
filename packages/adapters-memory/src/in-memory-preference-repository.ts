import {
  isNoLabelFilter,
  noLabelFilter,
  type DishId,
  type LabelFilter,
  type PersonPreferences,
  type UserId,
} from '@canteen-meals/domain';
import type { PreferenceRepository } from '@canteen-meals/domain/ports';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryPreferenceRepository implements PreferenceRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async preferencesOf(userId: UserId): Promise<PersonPreferences> {
    const filter = this.db.labelFilters.get(userId) ?? noLabelFilter;
    const aversions = [...(this.db.aversions.get(userId) ?? new Map<DishId, Date>())]
      .sort(([a], [b]) => a - b)
      .map(([dishId, since]) => ({ dishId, since: new Date(since.getTime()) }));
    return { filter: { without: [...filter.without], only: [...filter.only] }, aversions };
  }

  async preferencesOfUsers(userIds: readonly UserId[]): Promise<ReadonlyMap<UserId, PersonPreferences>> {
    return new Map(
      await Promise.all(userIds.map(async (userId) => [userId, await this.preferencesOf(userId)] as const)),
    );
  }

  async saveFilter(userId: UserId, filter: LabelFilter): Promise<void> {
    if (isNoLabelFilter(filter)) this.db.labelFilters.delete(userId);
    else this.db.labelFilters.set(userId, { without: [...filter.without], only: [...filter.only] });
  }

  async avoid(userId: UserId, dishId: DishId, at: Date): Promise<void> {
    let mine = this.db.aversions.get(userId);
    if (mine === undefined) this.db.aversions.set(userId, (mine = new Map()));
    if (!mine.has(dishId)) mine.set(dishId, new Date(at.getTime()));
  }

  async stopAvoiding(userId: UserId, dishId: DishId): Promise<boolean> {
    return this.db.aversions.get(userId)?.delete(dishId) ?? false;
  }

  async eraseAll(userId: UserId): Promise<{ readonly filters: number; readonly aversions: number }> {
    const filters = this.db.labelFilters.delete(userId) ? 1 : 0;
    const aversions = this.db.aversions.get(userId)?.size ?? 0;
    this.db.aversions.delete(userId);
    return { filters, aversions };
  }
}
