// Contract suites: each adapter's tests call them with a factory of fresh repositories over one fresh store.
export { describeDishContract } from './dish-contract.js';
export { describeHistogramOracleProperty } from './histogram-oracle-property.js';
export { describeCanteenRepositoryContract } from './canteen-repository-contract.js';
export { describeFeedStateRepositoryContract } from './feed-state-contract.js';
export { describeMarkingRepositoryContract } from './marking-repository-contract.js';
export { describeMealCatalogContract } from './meal-catalog-contract.js';
export { describeMealSourceRepositoryContract } from './meal-source-repository-contract.js';
export { describeMenuDayBoundContract } from './menu-day-bound-contract.js';
export { describeRatingRepositoryContract } from './rating-repository-contract.js';
export { describeRepositoryContracts } from './repository-contracts.js';
export { freshFixturePerTest, type CreateRepositoryFixture, type RepositoryFixture } from './repository-fixture.js';
export { MealMother, type MealTraits, type WireMeal } from './meal-mother.js';
export { ratingOpenAt, readAt, sampleMeal, servedAt } from './sample-meals.js';
export { describeMealQueriesContract } from './meal-queries-contract.js';
export { describeFavouriteServingsContract } from './favourite-servings-contract.js';
export { accepted } from './accepted.js';
export { probeThrough, type RepositoryProbe } from './repository-probe.js';
export { rateInPeriod } from './rate-in-period.js';
export { describeReadRepositoryContracts } from './read-repository-contracts.js';
export type { CreateReadRepositoryFixture, ReadRepositoryFixture } from './read-repository-fixture.js';
export { describeUserDataRepositoryContract } from './user-data-repository-contract.js';
export { describeAvailabilityRepositoryContract } from './availability-repository-contract.js';
export { describeWebhookContracts } from './webhook-contracts.js';
export { describeWebhookDeliveryContract } from './webhook-delivery-contract.js';
export { describeWebhookFanOutContract } from './webhook-fan-out-contract.js';
export { describeWebhookRecordingContract } from './webhook-recording-contract.js';
export {
  disabledEndpoint,
  observedEvents,
  sampleSecret,
  webhookDefinition,
  withoutIds,
  type CreateWebhookRepositoryFixture,
  type WebhookRepositoryFixture,
} from './webhook-fixture.js';
export { describePreferenceRepositoryContract } from './preference-repository-contract.js';
export { describePushContract, type CreatePushRepositoryFixture, type PushRepositoryFixture } from './push-contract.js';
export {
  describeAuditLogContract,
  type AuditRepositoryFixture,
  type CreateAuditRepositoryFixture,
} from './audit-log-contract.js';
