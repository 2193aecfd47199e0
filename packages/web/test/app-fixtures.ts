// Labels and meals for the students' app's tests: a few entries of the vocabulary (as GET /api/v1/labels answers
// them) and a whole meal of the public menu, each test changing what it is about.
import type { Label } from '@canteen-meals/client';
import type { MenuMeal } from '../src/app/model/menu-day.js';

const label = (code: string, kind: Label['kind'], en: string, de: string, parent: string | null = null): Label => ({
  code,
  kind,
  parent,
  name: { de, en },
});

export const gluten = label('gluten', 'allergen', 'Cereals containing gluten', 'Glutenhaltiges Getreide');
export const wheat = label('wheat', 'allergen', 'Wheat', 'Weizen', 'gluten');
export const rye = label('rye', 'allergen', 'Rye', 'Roggen', 'gluten');
export const milk = label('milk', 'allergen', 'Milk (including lactose)', 'Milch (einschließlich Laktose)');
export const colourant = label('colourant', 'additive', 'with colourant', 'mit Farbstoff');
export const vegetarian = label('vegetarian', 'diet', 'vegetarian', 'vegetarisch');
export const vegan = label('vegan', 'diet', 'vegan', 'vegan', 'vegetarian');
export const pork = label('pork', 'ingredient', 'Pork', 'Schwein');
export const placeholder = label('placeholder', 'menu', 'no meal (placeholder)', 'kein Gericht (Platzhalter)');

/** In the vocabulary's order, as the server lists them. */
export const someLabels: readonly Label[] = [gluten, wheat, rye, milk, colourant, vegetarian, vegan, pork, placeholder];

/** The lentil soup, served at 11:30 UTC on 2026-03-10 in Berlin's canteen, open to rating, available. */
export function menuMeal(change: Partial<MenuMeal> = {}): MenuMeal {
  return {
    meal_id: 42,
    name: 'Lentil soup',
    category: 'Main dishes',
    notes: ['vegan'],
    labels: ['vegan', 'vegetarian'],
    prices: { student: '2.90', employee: '4.10' },
    served_at: '2026-03-10T11:30:00.000Z',
    rateable: true,
    canteen_id: 'default',
    rating_open: true,
    rating_count: 0,
    rating_average: null,
    rating_median: null,
    rating_distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 },
    dish_id: 2,
    dish: {
      dish_id: 2,
      name: 'Lentil soup',
      rating_count: 0,
      rating_average: null,
      rating_median: null,
      times_served: 1,
      last_served_at: '2026-03-10T11:30:00.000Z',
      next_served_at: null,
    },
    availability: 'available',
    availability_changed_at: null,
    ...change,
  };
}
