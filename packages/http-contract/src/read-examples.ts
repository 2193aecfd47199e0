import type { Static } from '@sinclair/typebox';
import type { MealData } from './read-schemas.js';
import type { UserDataErasureData, UserDataExportData } from './user-data-schemas.js';

// Examples of the read answers for the API documentation; typed, so that they follow the schemas.

export const exampleMeal: MealData = {
  meal_id: 42,
  name: 'Lentil soup',
  category: 'Hauptgericht',
  notes: ['vegan'],
  prices: { student: '2.60', employee: '4.10' },
  served_at: '2026-03-10T11:30:00.000Z',
  rateable: true,
  rating_open: true,
  rating_count: 4,
  rating_average: 3.75,
  rating_median: 4,
  rating_distribution: { '1': 0, '2': 1, '3': 0, '4': 2, '5': 1 },
  marked: true,
  rating_personal: 5,
};

export const exampleUserDataExport: Static<typeof UserDataExportData> = {
  user_id: 'alice',
  exported_at: '2026-03-10T12:00:00.000Z',
  markings: [{ meal_id: 42, name: 'Lentil soup', served_at: '2026-03-10T11:30:00.000Z' }],
  ratings: [{ meal_id: 42, name: 'Lentil soup', served_at: '2026-03-10T11:30:00.000Z', rating: 5 }],
};

export const exampleUserDataErasure: Static<typeof UserDataErasureData> = { markings_erased: 1, ratings_erased: 1 };

/** The `examples` option of a success envelope around `data`. */
export function successExample(data: unknown) {
  return { examples: [{ status: 'success', data }] };
}
