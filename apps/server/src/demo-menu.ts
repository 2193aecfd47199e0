import { localDayOf, type Canteen, type Meal } from '@canteen-meals/domain';

const hour = 60 * 60 * 1000;
const day = 24 * hour;

/** The demo's second canteen, beside `default` (which holds the meals 1 to 8). */
export const demoCanteen: Canteen = {
  id: 'mensa-nord',
  name: 'Mensa Nord',
  timeZone: 'Europe/Berlin',
  city: 'Aachen',
  address: 'Turmstraße 3, 52072 Aachen',
  coordinates: { lat: 50.7806, lng: 6.0651 },
  feeds: [],
};

/**
 * A small menu around `now` that shows every rule: open, closed, not rateable, not yet served. Two canteens; the
 * lentil soup and the currywurst are served twice each (a dish with a history). `timeZone`: the `default` canteen's.
 */
export function demoMenu(now: Date, timeZone: string): Meal[] {
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
  // Today's meals two hours ago, but never before today's start on the canteen's clock: between midnight and two
  // o'clock they would be yesterday's, and the tour's menu of today empty. Served already, so they can be rated.
  const earlierToday = new Date(Math.max(now.getTime() - 2 * hour, localDayOf(now, timeZone).from.getTime()));
  return [
    { id: 1, name: 'Spaghetti Bolognese', servedAt: earlierToday, rateable: true },
    { id: 2, name: 'Vegetable curry with rice', servedAt: earlierToday, rateable: true },
    { id: 3, name: 'Fish and chips', servedAt: at(-2 * day), rateable: true },
    { id: 4, name: 'Lentil soup', servedAt: at(-5 * day), rateable: true },
    { id: 5, name: 'Salad bar', servedAt: earlierToday, rateable: false },
    { id: 6, name: 'Schnitzel with potato salad', servedAt: at(day), rateable: true },
    { id: 7, name: 'Chili sin carne', servedAt: at(-10 * day), rateable: true },
    { id: 8, name: 'Lentil soup', servedAt: at(-3 * day), rateable: true },
    { id: 9, name: 'Currywurst with fries', servedAt: at(-1 * day), rateable: true, canteenId: demoCanteen.id },
    { id: 10, name: 'Currywurst with fries', servedAt: at(2 * day), rateable: true, canteenId: demoCanteen.id },
  ];
}
