import type { Meal, MealId } from '@canteen-meals/domain';

const hour = 60 * 60 * 1000;
const day = 24 * hour;

/** What a test may state about a meal; whatever it leaves out takes a default that matters to no test. */
export type MealTraits = Partial<Meal>;

/**
 * A meal as the admin upsert and the client send it: wire names, the instant as an ISO string (mutable, as the wire
 * types are).
 */
export interface WireMeal {
  meal_id: MealId;
  name: string;
  served_at: string;
  rateable: boolean;
  category?: string | null;
  notes?: string[];
  prices?: { [role: string]: string };
  canteen_id?: string;
  labels?: string[];
}

/**
 * Builds the meals tests need (an object mother): each builder names what matters, e.g. when the meal is served
 * relative to the test's `now`, and defaults the rest (id 1, `Meal <id>`, rateable, no details).
 * `MealMother.servedHoursAgo(now, 1, { id: 2, rateable: false })`, `MealMother.upsertBody(meal, ...)`.
 */
export const MealMother = {
  /** A meal served at the given instant. */
  servedAt(servedAt: Date, traits: MealTraits = {}): Meal {
    const id = traits.id ?? 1;
    return { id, name: `Meal ${id}`, servedAt, rateable: true, ...traits };
  },

  /** Served an hour before `now`: inside its rating period, the meal most tests mark and rate. */
  servedToday(now: Date, traits: MealTraits = {}): Meal {
    return MealMother.servedHoursAgo(now, 1, traits);
  },

  servedHoursAgo(now: Date, hours: number, traits: MealTraits = {}): Meal {
    return MealMother.servedAt(new Date(now.getTime() - hours * hour), traits);
  },

  servedDaysAgo(now: Date, days: number, traits: MealTraits = {}): Meal {
    return MealMother.servedAt(new Date(now.getTime() - days * day), traits);
  },

  /** Served a day after `now`: not served yet, so nobody can rate it. */
  servedTomorrow(now: Date, traits: MealTraits = {}): Meal {
    return MealMother.servedAt(new Date(now.getTime() + day), traits);
  },

  /** The same meal, closed to ratings (a drink, the salad bar). */
  notRateable(meal: Meal): Meal {
    return { ...meal, rateable: false };
  },

  /** The meal in its wire form; details appear only where the meal has them. */
  wire(meal: Meal): WireMeal {
    return {
      meal_id: meal.id,
      name: meal.name,
      served_at: meal.servedAt.toISOString(),
      rateable: meal.rateable,
      ...(meal.category === undefined ? {} : { category: meal.category }),
      ...(meal.notes === undefined ? {} : { notes: [...meal.notes] }),
      ...(meal.prices === undefined ? {} : { prices: { ...meal.prices } as { [role: string]: string } }),
      ...(meal.canteenId === undefined ? {} : { canteen_id: meal.canteenId }),
      ...(meal.labels === undefined ? {} : { labels: [...meal.labels] }),
    };
  },

  /** The body of `PUT /api/v1/admin/meals` (and the client's `upsertMeals`) for the given meals. */
  upsertBody(...meals: readonly Meal[]): { meals: WireMeal[] } {
    return { meals: meals.map((meal) => MealMother.wire(meal)) };
  },
};
