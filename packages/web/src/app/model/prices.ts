// Prices for the person's group (OpenMensa's roles), formatted as the page's language writes euros.
import type { MealView } from '@canteen-meals/client';
import { numberFormat } from '../../shared/formatters.js';

export const priceGroups = ['student', 'employee', 'pupil', 'other'] as const;
export type PriceGroup = (typeof priceGroups)[number];
export const isPriceGroup = (value: unknown): value is PriceGroup => priceGroups.includes(value as PriceGroup);

/** The price for the group (`€2.90`, `2,90 €`), or null when the menu gives none for it. */
export function priceFor(prices: MealView['prices'], group: PriceGroup, language: string): string | null {
  const amount = prices[group];
  if (amount === undefined) return null;
  return numberFormat(language, { style: 'currency', currency: 'EUR' }).format(Number(amount));
}
