import type { DishId } from '../dish/dish.js';
import type { DishAversion, PreferenceRepository } from '../preference/preference-repository.js';
import type { UserId } from '../shared/user-id.js';

/** One page of the dishes a person avoids, by dish id ascending, and the dish id the next page starts after. */
export interface AversionPage {
  readonly aversions: readonly DishAversion[];
  readonly next: DishId | null;
}

/** GET /me/aversions: the person's aversions a page at a time (all of them, at most 500, unless a limit is asked). */
export class ListAversions {
  constructor(private readonly deps: { readonly preferences: PreferenceRepository }) {}

  async execute(query: {
    readonly userId: UserId;
    readonly limit: number;
    readonly after: DishId | null;
  }): Promise<AversionPage> {
    const { aversions } = await this.deps.preferences.preferencesOf(query.userId);
    const rest = query.after === null ? aversions : aversions.filter((aversion) => aversion.dishId > query.after!);
    const page = rest.slice(0, Math.max(1, query.limit));
    return { aversions: page, next: rest.length > page.length ? page.at(-1)!.dishId : null };
  }
}
