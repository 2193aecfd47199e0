import { afterEach, beforeEach } from 'vitest';
import type {
  CanteenRepository,
  ClosedDayRepository,
  DishQueries,
  DishRepository,
  FeedStateRepository,
  MarkingRepository,
  MealCatalog,
  MealQueries,
  MealSourceRepository,
  PreferenceRepository,
  RatingRepository,
} from '@canteen-meals/domain/ports';

/** Fresh repositories over one fresh, empty store, as one adapter builds them for one test. */
export interface RepositoryFixture {
  readonly meals: MealCatalog;
  readonly markings: MarkingRepository;
  readonly ratings: RatingRepository;
  readonly mealSources: MealSourceRepository;
  readonly canteens: CanteenRepository;
  readonly closedDays: ClosedDayRepository;
  readonly dishes: DishRepository;
  readonly dishQueries: DishQueries;
  readonly feedStates: FeedStateRepository;
  readonly preferences: PreferenceRepository;
  /** The read side: tests observe the write side's effects through it (see RepositoryProbe). */
  readonly queries: MealQueries;
  /** Runs after the test: close connections, delete temporary files. */
  readonly cleanup?: () => void | Promise<void>;
}

export type CreateRepositoryFixture = () => RepositoryFixture | Promise<RepositoryFixture>;

/** Registers hooks that build a fresh fixture before each test and clean it up after; returns its accessor. */
export function freshFixturePerTest<F extends RepositoryFixture = RepositoryFixture>(
  createFixture: () => F | Promise<F>,
): () => F {
  let fixture: F | undefined;
  beforeEach(async () => {
    fixture = await createFixture();
  });
  afterEach(async () => {
    const done = fixture;
    fixture = undefined;
    await done?.cleanup?.();
  });
  return () => {
    if (fixture === undefined) throw new Error('the repository fixture exists only while a test runs');
    return fixture;
  };
}
