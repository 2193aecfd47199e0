// Contract suites: each adapter's tests call them with a factory of fresh repositories over one fresh store.
export { describeMarkingRepositoryContract } from './marking-repository-contract.js';
export { describeMealCatalogContract } from './meal-catalog-contract.js';
export { describeMealSourceRepositoryContract } from './meal-source-repository-contract.js';
export { describeRatingRepositoryContract } from './rating-repository-contract.js';
export { describeRepositoryContracts } from './repository-contracts.js';
export { freshFixturePerTest, type CreateRepositoryFixture, type RepositoryFixture } from './repository-fixture.js';
export { MealMother, type MealTraits, type WireMeal } from './meal-mother.js';
export { ratingOpenAt, sampleMeal, servedAt } from './sample-meals.js';
export { describeMealQueriesContract } from './meal-queries-contract.js';
export { rateInPeriod } from './rate-in-period.js';
export { describeReadRepositoryContracts } from './read-repository-contracts.js';
export type { CreateReadRepositoryFixture, ReadRepositoryFixture } from './read-repository-fixture.js';
export { describeUserDataRepositoryContract } from './user-data-repository-contract.js';
