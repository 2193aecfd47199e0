export { FixedClock } from './fixed-clock.js';
export { createInMemoryAdapters } from './in-memory-adapters.js';
export { InMemoryDatabase } from './in-memory-database.js';
export { InMemoryMarkingRepository } from './in-memory-marking-repository.js';
export { InMemoryMealCatalog } from './in-memory-meal-catalog.js';
export { InMemoryMealSourceRepository } from './in-memory-meal-source-repository.js';
export { InMemoryRatingRepository } from './in-memory-rating-repository.js';
