import type { MealReading, MenuDayReading, StoredCanteen } from '@canteen-meals/domain';
import { rubyFloat, rubyPrice } from './ruby-numbers.js';

// The objects of openmensa.org's API v2, written as its decorators write them: the keys in their order, every key
// always present. JSON.stringify cannot write `3.0`, so the numbers are written here as text.

const text = (value: string) => JSON.stringify(value);

/** `{id, name, city, address, coordinates}`; name and city never null (an unknown city is ""). */
export function canteenJson(canteen: StoredCanteen): string {
  const at = canteen.coordinates;
  const coordinates = at === null ? 'null' : `[${rubyFloat(at.lat)},${rubyFloat(at.lng)}]`;
  const address = canteen.address === null ? 'null' : text(canteen.address);
  return `{"id":${canteen.openmensaId},"name":${text(canteen.name)},"city":${text(canteen.city ?? '')},"address":${address},"coordinates":${coordinates}}`;
}

/** `{date, closed}`. */
export function dayJson(day: Pick<MenuDayReading, 'date' | 'closed'>): string {
  return `{"date":"${day.date}","closed":${day.closed}}`;
}

/** `{date, closed, meals}`: a day of `/canteens/{id}/meals`. */
export function dayWithMealsJson(day: MenuDayReading): string {
  return `{"date":"${day.date}","closed":${day.closed},"meals":[${day.meals.map(mealJson).join(',')}]}`;
}

/** `{id, name, category, prices, notes}`: the id is the serving's; category never null; all four prices. */
export function mealJson({ meal }: MealReading): string {
  const price = (amount: string | undefined) => (amount === undefined ? 'null' : rubyPrice(amount));
  const { student, employee, pupil, other } = meal.prices;
  const prices = `{"students":${price(student)},"employees":${price(employee)},"pupils":${price(pupil)},"others":${price(other)}}`;
  return `{"id":${meal.id},"name":${text(meal.name)},"category":${text(meal.category ?? '')},"prices":${prices},"notes":${JSON.stringify(meal.notes)}}`;
}
