import { describeCanteenRepositoryContract } from './canteen-repository-contract.js';
import { describeClosedDayRepositoryContract } from './closed-day-contract.js';
import { describeFeedStateRepositoryContract } from './feed-state-contract.js';
import { describeMarkingRepositoryContract } from './marking-repository-contract.js';
import { describeMealCatalogContract } from './meal-catalog-contract.js';
import { describeMealSourceRepositoryContract } from './meal-source-repository-contract.js';
import { describeMenuDayBoundContract } from './menu-day-bound-contract.js';
import { describeRatingRepositoryContract } from './rating-repository-contract.js';
import type { CreateRepositoryFixture } from './repository-fixture.js';
import { describePreferenceRepositoryContract } from './preference-repository-contract.js';

/** Every port's contract, for an adapter family that implements all of them over one store. */
export function describeRepositoryContracts(adapterName: string, createFixture: CreateRepositoryFixture): void {
  describeMealCatalogContract(adapterName, createFixture);
  describeMarkingRepositoryContract(adapterName, createFixture);
  describeRatingRepositoryContract(adapterName, createFixture);
  describeMealSourceRepositoryContract(adapterName, createFixture);
  describeMenuDayBoundContract(adapterName, createFixture);
  describeCanteenRepositoryContract(adapterName, createFixture);
  describeClosedDayRepositoryContract(adapterName, createFixture);
  describeFeedStateRepositoryContract(adapterName, createFixture);
  describePreferenceRepositoryContract(adapterName, createFixture);
}
