import type { DishId } from '../dish/dish.js';
import type { LabelFilter } from '../label/label-filter.js';
import type { UserId } from '../shared/user-id.js';

/** A dish a person never wants to see, since when. */
export interface DishAversion {
  readonly dishId: DishId;
  readonly since: Date;
}

/** What a person keeps server-side about what they eat: a label filter and the dishes they avoid. */
export interface PersonPreferences {
  readonly filter: LabelFilter;
  readonly aversions: readonly DishAversion[];
}

export interface PreferenceRepository {
  /** The person's label filter and aversions (by dish id ascending); none of either when nothing is stored. */
  preferencesOf(userId: UserId): Promise<PersonPreferences>;
  /**
   * What preferencesOf answers, for each of `userIds` (each once in the map, also those who stored nothing), in one
   * read where the adapter can: a digest asks for thousands of people at once.
   */
  preferencesOfUsers(userIds: readonly UserId[]): Promise<ReadonlyMap<UserId, PersonPreferences>>;
  /** Replaces the label filter; an empty filter is stored as none. */
  saveFilter(userId: UserId, filter: LabelFilter): Promise<void>;
  /** Idempotent: avoiding a dish again keeps the first instant. */
  avoid(userId: UserId, dishId: DishId, at: Date): Promise<void>;
  /** Answers whether the dish was avoided. */
  stopAvoiding(userId: UserId, dishId: DishId): Promise<boolean>;
  /** GDPR art. 17: forgets the filter and every aversion; answers how many of each it removed. */
  eraseAll(userId: UserId): Promise<{ readonly filters: number; readonly aversions: number }>;
}
