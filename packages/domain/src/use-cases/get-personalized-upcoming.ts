import type { MenuSelection } from '../menu/menu-selection.js';
import { personalViewOf, showingOf, type PersonalReadOptions } from '../menu/personal-view.js';
import type { PersonPreferences } from '../preference/preference-repository.js';
import type { UserId } from '../shared/user-id.js';
import type { UpcomingFavourites, UpcomingServing } from './get-upcoming-favourites.js';

/** A coming serving of a favourite dish, and whether its dish is one the reader avoids. */
export interface PersonalizedServing extends UpcomingServing {
  readonly avoided: boolean;
}

export interface PersonalizedUpcoming extends UpcomingFavourites {
  readonly servings: readonly PersonalizedServing[];
}

export interface GetPersonalizedUpcomingQuery extends PersonalReadOptions {
  readonly userId: UserId;
  /** How many days ahead, today included; absent: GetUpcomingFavourites' default. */
  readonly days?: number | undefined;
  /** The read's own selection, before the reader's preferences. */
  readonly selection: MenuSelection;
}

/**
 * The coming servings of the reader's favourite dishes as they see a menu: the read's selection with their label
 * preferences unless `all`, the servings of dishes they avoid marked, or left out with `hideAvoided`.
 */
export class GetPersonalizedUpcoming {
  constructor(
    private readonly deps: {
      readonly getUpcomingFavourites: {
        execute(query: { readonly userId: UserId; readonly days?: number }): Promise<UpcomingFavourites>;
      };
      readonly getPreferences: { execute(query: { readonly userId: UserId }): Promise<PersonPreferences> };
    },
  ) {}

  async execute(query: GetPersonalizedUpcomingQuery): Promise<PersonalizedUpcoming> {
    const { userId, days } = query;
    const preferences = await this.deps.getPreferences.execute({ userId });
    const view = personalViewOf(query.selection, query, preferences);
    const upcoming = await this.deps.getUpcomingFavourites.execute(days === undefined ? { userId } : { userId, days });
    const servings: PersonalizedServing[] = [];
    for (const serving of upcoming.servings) {
      const showing = showingOf(view, serving.reading);
      if (showing !== 'hidden') servings.push({ ...serving, avoided: showing === 'avoided' });
    }
    return { ...upcoming, servings };
  }
}
