import type { DishId } from '../dish/dish.js';
import type { DishQueries } from '../dish/dish-queries.js';
import { labelFilterOf, type LabelFilter } from '../label/label-filter.js';
import type { DishAversion, PersonPreferences, PreferenceRepository } from '../preference/preference-repository.js';
import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import type { UserId } from '../shared/user-id.js';

export const savePreferencesRefusals = ['unknown_label'] as const;

/** PUT /me/preferences: what the person's menus leave out and keep, checked against the vocabulary, then stored. */
export class SavePreferences {
  constructor(private readonly deps: { readonly preferences: PreferenceRepository }) {}

  async execute(command: {
    readonly userId: UserId;
    readonly without: readonly string[];
    readonly only: readonly string[];
  }): Promise<Result<LabelFilter, 'unknown_label'>> {
    const filter = labelFilterOf(command.without, command.only);
    if (!filter.ok) return filter;
    await this.deps.preferences.saveFilter(command.userId, filter.value);
    return filter;
  }
}

/** The person's preferences: what GET /me/preferences answers and every personalized read applies. */
export class GetPreferences {
  constructor(private readonly deps: { readonly preferences: PreferenceRepository }) {}

  execute({ userId }: { readonly userId: UserId }): Promise<PersonPreferences> {
    return this.deps.preferences.preferencesOf(userId);
  }
}

export const avoidDishRefusals = ['dish_not_found', 'too_many_aversions'] as const;

/**
 * How many dishes one person may avoid: far more than anyone avoids on purpose, and a bound on what every personalized
 * read of theirs has to apply and what their list answers.
 */
export const maxAversionsPerPerson = 500;

/** PUT and DELETE /me/aversions/{dish_id}: a dish the person never wants to see, or no longer. */
export class AvoidDish {
  constructor(
    private readonly deps: {
      readonly preferences: PreferenceRepository;
      readonly dishQueries: DishQueries;
      readonly clock: Clock;
    },
  ) {}

  async execute(command: {
    readonly userId: UserId;
    readonly dishId: DishId;
    readonly avoided: boolean;
  }): Promise<Result<boolean, (typeof avoidDishRefusals)[number]>> {
    const { userId, dishId } = command;
    if (!command.avoided) {
      // Forgetting an aversion needs no dish: one of a dish merged away can still be dropped.
      await this.deps.preferences.stopAvoiding(userId, dishId);
      return accept(false);
    }
    const now = this.deps.clock.now();
    if ((await this.deps.dishQueries.dish(dishId, null, now)) === undefined) return refuse('dish_not_found');
    const { aversions } = await this.deps.preferences.preferencesOf(userId);
    // Avoiding a dish again stays idempotent at the limit; a new one past it is refused.
    if (aversions.length >= maxAversionsPerPerson && !aversions.some((aversion) => aversion.dishId === dishId)) {
      return refuse(
        'too_many_aversions',
        `You avoid ${aversions.length} dishes, the most a person may (${maxAversionsPerPerson}): stop avoiding one first.`,
      );
    }
    await this.deps.preferences.avoid(userId, dishId, now);
    return accept(true);
  }
}

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
