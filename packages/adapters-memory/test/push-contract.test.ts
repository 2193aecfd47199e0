import { createInMemoryAdapters, createInMemoryPushStore, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { describePushContract } from '@canteen-meals/repository-contract';

// Web Push's ports over the same in-memory database as the menu's repositories, which seed the audience's meals.
describePushContract('in-memory', () => {
  const db = new InMemoryDatabase();
  return { ...createInMemoryAdapters(db), ...createInMemoryPushStore(db) };
});
