import type { Meal } from '@canteen-meals/domain';

const hour = 60 * 60 * 1000;
const day = 24 * hour;

/** A small menu around `now` that shows every rule: open, closed, not rateable, not yet served. */
export function demoMenu(now: Date): Meal[] {
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
  return [
    { id: 1, name: 'Spaghetti Bolognese', servedAt: at(-2 * hour), rateable: true },
    { id: 2, name: 'Vegetable curry with rice', servedAt: at(-2 * hour), rateable: true },
    { id: 3, name: 'Fish and chips', servedAt: at(-2 * day), rateable: true },
    { id: 4, name: 'Lentil soup', servedAt: at(-5 * day), rateable: true },
    { id: 5, name: 'Salad bar', servedAt: at(-2 * hour), rateable: false },
    { id: 6, name: 'Schnitzel with potato salad', servedAt: at(day), rateable: true },
    { id: 7, name: 'Chili sin carne', servedAt: at(-10 * day), rateable: true },
  ];
}
