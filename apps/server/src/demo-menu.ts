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
 * lentil soup and the currywurst are served twice each (a dish with a history); categories, labels and prices as a
 * feed gives them, for the students' app. `timeZone`: the `default` canteen's.
 */
export function demoMenu(now: Date, timeZone: string): Meal[] {
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
  // Today's meals two hours ago, but never before today's start on the canteen's clock: between midnight and two
  // o'clock they would be yesterday's, and the tour's menu of today empty. Served already, so they can be rated.
  const earlierToday = new Date(Math.max(now.getTime() - 2 * hour, localDayOf(now, timeZone).from.getTime()));
  const main = 'Main course';
  const vegan = 'Vegan';
  const side = 'Sides';
  return [
    {
      id: 1,
      name: 'Spaghetti Bolognese',
      servedAt: earlierToday,
      rateable: true,
      category: main,
      labels: ['wheat', 'beef', 'celery'],
      prices: price('3.20', '5.10', '4.40'),
    },
    {
      id: 2,
      name: 'Vegetable curry with rice',
      servedAt: earlierToday,
      rateable: true,
      category: vegan,
      labels: ['vegan', 'mustard'],
      prices: price('2.90', '4.60', '3.90'),
    },
    {
      id: 3,
      name: 'Fish and chips',
      servedAt: at(-2 * day),
      rateable: true,
      category: main,
      labels: ['fish', 'wheat'],
      prices: price('3.60', '5.50', '4.80'),
    },
    {
      id: 4,
      name: 'Lentil soup',
      servedAt: at(-5 * day),
      rateable: true,
      category: vegan,
      labels: ['vegan', 'celery'],
      prices: price('1.90', '3.10', '2.50'),
    },
    {
      id: 5,
      name: 'Salad bar',
      servedAt: earlierToday,
      rateable: false,
      category: side,
      labels: ['vegan'],
      prices: price('0.95', '1.40', '1.20'),
    },
    {
      id: 6,
      name: 'Schnitzel with potato salad',
      servedAt: at(day),
      rateable: true,
      category: main,
      labels: ['pork', 'wheat', 'eggs', 'mustard'],
      prices: price('3.90', '5.90', '5.10'),
    },
    {
      id: 7,
      name: 'Chili sin carne',
      servedAt: at(-10 * day),
      rateable: true,
      category: vegan,
      labels: ['vegan'],
      prices: price('2.70', '4.30', '3.60'),
    },
    {
      id: 8,
      name: 'Lentil soup',
      servedAt: at(-3 * day),
      rateable: true,
      category: vegan,
      labels: ['vegan', 'celery'],
      prices: price('1.90', '3.10', '2.50'),
    },
    {
      id: 9,
      name: 'Currywurst with fries',
      servedAt: at(-1 * day),
      rateable: true,
      canteenId: demoCanteen.id,
      category: main,
      labels: ['pork', 'mustard'],
      prices: price('2.80', '4.50', '3.80'),
    },
    {
      id: 10,
      name: 'Currywurst with fries',
      servedAt: at(2 * day),
      rateable: true,
      canteenId: demoCanteen.id,
      category: main,
      labels: ['pork', 'mustard'],
      prices: price('2.80', '4.50', '3.80'),
    },
  ];
}

/** Students', employees' and others' prices, in euros (pupils pay as students). */
function price(student: string, employee: string, other: string) {
  return { student, employee, pupil: student, other };
}
