import { describeDishContract } from './dish-contract.js';
import { describeFavouriteServingsContract } from './favourite-servings-contract.js';
import { describeHistogramOracleProperty } from './histogram-oracle-property.js';
import { describeMealQueriesContract } from './meal-queries-contract.js';
import type { CreateReadRepositoryFixture } from './read-repository-fixture.js';
import { describeUserDataRepositoryContract } from './user-data-repository-contract.js';

/** The read side's contracts, for an adapter family that implements MealQueries and UserDataRepository too. */
export function describeReadRepositoryContracts(adapterName: string, createFixture: CreateReadRepositoryFixture): void {
  describeMealQueriesContract(adapterName, createFixture);
  describeFavouriteServingsContract(adapterName, createFixture);
  describeUserDataRepositoryContract(adapterName, createFixture);
  describeDishContract(adapterName, createFixture);
  describeHistogramOracleProperty(adapterName, createFixture);
}
