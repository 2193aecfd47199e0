import { createInMemoryAdapters, FixedClock } from '@canteen-meals/adapters-memory';
import { createUseCases, ratingStatistics } from '@canteen-meals/domain';

// 1. Adapters: the in-memory repositories share one database; the clock stands still until told to move.
const repositories = createInMemoryAdapters();
const clock = new FixedClock('2025-03-14T12:30:00Z');

// 2. Use cases: built as the server builds them, over the repositories, the clock and the canteen's service time.
const { upsertMeals, markMeal, rateMeal, getMeal } = createUseCases(repositories, clock, {
  start: '11:30',
  timeZone: 'Europe/Berlin',
});

// 3. A menu: one meal served an hour ago. Every use case answers a result: { ok: true, value } or a refusal.
await upsertMeals.execute([{ id: 1, name: 'Lentil soup', servedAt: new Date('2025-03-14T11:30:00Z'), rateable: true }]);

// 4. Mark it as a favourite, then rate it as two users.
const marking = await markMeal.execute({ userId: 'alice', mealId: 1, marked: true });
if (marking.ok) console.log('alice marks meal 1:', marking.value);
await rateMeal.execute({ userId: 'alice', mealId: 1, rating: 5 });
const rated = await rateMeal.execute({ userId: 'bob', mealId: 1, rating: 4 });
if (rated.ok) console.log('bob rates meal 1 with 4:', rated.value);

// 5. The read side: the meal as alice sees it, with its histogram, her own marking and rating.
const reading = await getMeal.execute({ userId: 'alice', mealId: 1 });
if (reading.ok) {
  const { distribution, marked, personalRating, ratingOpen } = reading.value;
  // Statistics follow from the meal's histogram of the five values.
  console.log('statistics of meal 1:', ratingStatistics(distribution));
  console.log('alice reads meal 1:', { marked, personalRating, ratingOpen });
}

// 6. A week and a day later the rating period is over: the use case answers a refusal with its code and message.
clock.advance(8 * 24 * 60 * 60 * 1000);
const late = await rateMeal.execute({ userId: 'alice', mealId: 1, rating: null });
if (!late.ok) console.log('alice deletes her rating a week later:', late.refusal.code);
