import type { CanteenData, CanteensData } from './canteen-schemas.js';
import type { AdminCanteensData, ArchivedCanteenData } from './canteen-schemas.js';
import type { Static } from '@sinclair/typebox';
import type { AvailabilityData, MarkMealData, RateMealData, UpsertMealsData } from './meal-schemas.js';
import type { MealData, MealPageData, MealsData } from './read-schemas.js';
import { ratingsReportColumns } from './report-schemas.js';
import type { UpcomingData } from './upcoming-schemas.js';
import type { AccessData, UserDataErasureData, UserDataExportData } from './user-data-schemas.js';

// The examples of the API documentation tell one story, at 2026-03-10T12:00Z: an admin upserts meal 42 (meal 41 was
// served the day before), bob, carol and dave rate it 2, 4 and 4, alice marks 41 and 42, rates 42 with a 5, reads,
// pages, exports and erases her data, and the ratings report of both days is read. A test (adapters-http
// test/api-docs/examples-are-real.test.ts) replays the story
// against the real app, so each example is a real answer; typed, so that each also follows its schema.

// The request examples are the schemas' own `examples` (so they cannot name the schemas' types); the real app
// accepting them in the test is their check.
export const exampleUpsertRequest = {
  meals: [
    {
      meal_id: 42,
      name: 'Lentil soup',
      served_at: '2026-03-10T12:30:00+01:00',
      rateable: true,
      category: 'Hauptgericht',
      notes: ['vegan'],
      prices: { student: '2.60', employee: '4.10' },
    },
  ],
};
export const exampleUpsertAnswer: UpsertMealsData = { upserted: 1 };

export const exampleMarkRequest = { meal_id: 42, marked: true };
export const exampleMarkAnswer: MarkMealData = { marked: true };

export const exampleRateRequest = { meal_id: 42, rating: 5 };
export const exampleRateAnswer: RateMealData = {
  rating_count: 4,
  rating_average: 3.75,
  rating_median: 4,
  rating_personal: 5,
};

export const exampleMeal: MealData = {
  meal_id: 42,
  name: 'Lentil soup',
  category: 'Hauptgericht',
  notes: ['vegan'],
  labels: ['vegan', 'vegetarian'],
  prices: { student: '2.60', employee: '4.10' },
  served_at: '2026-03-10T11:30:00.000Z',
  rateable: true,
  canteen_id: 'default',
  rating_open: true,
  rating_count: 4,
  rating_average: 3.75,
  rating_median: 4,
  rating_distribution: { '1': 0, '2': 1, '3': 0, '4': 2, '5': 1 },
  marked: true,
  rating_personal: 5,
  dish_id: 2,
  dish: {
    dish_id: 2,
    name: 'Lentil soup',
    rating_count: 4,
    rating_average: 3.75,
    rating_median: 4,
    times_served: 1,
    last_served_at: '2026-03-10T11:30:00.000Z',
    next_served_at: null,
  },
  availability: 'few_left',
  availability_changed_at: '2026-03-10T12:00:00.000Z',
};

/** At noon the kitchen sees the lentil soup running low. */
export const exampleAvailabilityRequest = { status: 'few_left' as const };
export const exampleAvailabilityAnswer: AvailabilityData = {
  meal_id: 42,
  availability: 'few_left',
  availability_changed_at: '2026-03-10T12:00:00.000Z',
};

export const exampleMeals: Static<typeof MealsData> = { meals: [exampleMeal], unknown_ids: [7] };

/** `?limit=1` of alice's marked meals (42, then 41): a page with a cursor to the next (signed with the test's key). */
export const exampleMarkedPage: Static<typeof MealPageData> = {
  meals: [exampleMeal],
  next_cursor: 'bWFya2VkOjE3NzMxNDIyMDAwMDA6NDL3PZMqzL0nZRoSX0y1Pe6k',
};
/** `?limit=1` of alice's rated meals: 42 alone, the last page. */
export const exampleRatedPage: Static<typeof MealPageData> = { meals: [exampleMeal], next_cursor: null };

/** alice's coming week: she marked the lentil soup, served today (earlier today still counts) and not again yet. */
export const exampleUpcoming: UpcomingData = { servings: [{ ...exampleMeal, date: '2026-03-10' }], truncated: false };

export const exampleUserDataExport: Static<typeof UserDataExportData> = {
  user_id: 'alice',
  exported_at: '2026-03-10T12:00:00.000Z',
  markings: [
    { meal_id: 41, name: 'Pancakes', served_at: '2026-03-09T11:30:00.000Z' },
    { meal_id: 42, name: 'Lentil soup', served_at: '2026-03-10T11:30:00.000Z' },
  ],
  ratings: [{ meal_id: 42, name: 'Lentil soup', served_at: '2026-03-10T11:30:00.000Z', rating: 5 }],
  preferences: { without: [], only: [] },
  aversions: [],
};

export const exampleAccess: Static<typeof AccessData> = {
  user: 'kitchen-tablet-3',
  scopes: [],
  global: [],
  canteens: { default: ['meals:kitchen'] },
};

export const exampleUserDataErasure: Static<typeof UserDataErasureData> = {
  markings_erased: 2,
  ratings_erased: 1,
  preferences_erased: 0,
  aversions_erased: 0,
};

/**
 * The ratings report of the canteen `default` from 2026-03-09 to 2026-03-10 (Europe/Berlin) once alice's rating is
 * erased: the CSV text after the byte order mark that starts the answer.
 */
export const exampleRatingsReport = [
  ratingsReportColumns.join(','),
  '2026-03-09,2026-03-09T11:30:00.000Z,41,1,"Pancakes","Pancakes",,0,,,0,0,0,0,0,',
  '2026-03-10,2026-03-10T11:30:00.000Z,42,2,"Lentil soup","Lentil soup","Hauptgericht",3,3.33,4,0,1,0,2,0,',
  '',
].join('\r\n');

/** The `examples` option of a success envelope around `data`. */
export function successExample(data: unknown) {
  return { examples: [{ status: 'success', data }] };
}

export const exampleCanteen: CanteenData = {
  canteen_id: 'mensa-academica',
  openmensa_id: 187,
  name: 'Mensa Academica',
  timezone: 'Europe/Berlin',
  city: 'Aachen',
  address: 'Pontwall 3, 52062 Aachen',
  coordinates: { lat: 50.77964, lng: 6.07838 },
};

/** The admin's answer to a PUT: the canteen with its feeds (public reads leave them out). */
export const exampleSavedCanteen: CanteenData = {
  ...exampleCanteen,
  feeds: [],
  note_labels: {},
  placeholder_names: [],
};

export const exampleCanteens: CanteensData = {
  canteens: [
    {
      canteen_id: 'default',
      openmensa_id: 1,
      name: 'Default canteen',
      timezone: 'Europe/Berlin',
      city: null,
      address: null,
      coordinates: null,
    },
    exampleCanteen,
  ],
};

/** The admin archives the canteen at the story's instant (DELETE /admin/canteens/mensa-academica). */
export const exampleArchivedCanteen: ArchivedCanteenData = {
  canteen_id: 'mensa-academica',
  archived_at: '2026-03-10T12:00:00.000Z',
};

/** The admin's list after that: the archived canteen stays in it, with its archived_at, for a console to restore it. */
export const exampleAdminCanteens: AdminCanteensData = {
  canteens: [
    { ...exampleCanteens.canteens[0]!, feeds: [], note_labels: {}, placeholder_names: [], archived_at: null },
    { ...exampleSavedCanteen, feeds: [], archived_at: exampleArchivedCanteen.archived_at },
  ],
};
