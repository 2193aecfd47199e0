import { createInMemoryAdapters, FixedClock } from '@canteen-meals/adapters-memory';
import { createUseCases, DomainError, ratingStatistics } from '@canteen-meals/domain';

// 1. Adapters: the in-memory repositories share one database; the clock stands still until told to move.
const repositories = createInMemoryAdapters();
const clock = new FixedClock('2025-03-14T12:30:00Z');

// 2. Use cases: built as the server builds them, over the repositories, the clock and the canteen's service time.
const { upsertMeals, markMeal, rateMeal, getMeal } = createUseCases(repositories, clock, {
  start: '11:30',
  timeZone: 'Europe/Berlin',
});

// 3. A menu: one meal served an hour ago.
await upsertMeals.execute([
  { id: 1, name: 'Lentil soup', servedAt: new Date('2025-03-14T11:30:00Z'), rateable: true },
]);

// 4. Mark it as a favourite, then rate it as two users.
console.log('alice marks meal 1:', await markMeal.execute({ userId: 'alice', mealId: 1, marked: true }));
await rateMeal.execute({ userId: 'alice', mealId: 1, rating: 5 });
const statistics = await rateMeal.execute({ userId: 'bob', mealId: 1, rating: 4 });
console.log('bob rates meal 1 with 4:', statistics);

// 5. Statistics without changing anything: they follow from the meal's histogram of the five values.
console.log('statistics of meal 1:', ratingStatistics(await repositories.ratings.histogram(1)));

// 6. The read side: the meal as alice sees it, with her own marking and rating.
const { marked, personalRating, ratingOpen } = await getMeal.execute({ userId: 'alice', mealId: 1 });
console.log('alice reads meal 1:', { marked, personalRating, ratingOpen });

// 7. A week and a day later the rating period is over: the use case refuses with a DomainError and its code.
clock.advance(8 * 24 * 60 * 60 * 1000);
try {
  await rateMeal.execute({ userId: 'alice', mealId: 1, rating: null });
} catch (error) {
  if (!(error instanceof DomainError)) throw error;
  console.log('alice deletes her rating a week later:', error.code);
}
