import { createInMemoryAdapters } from '@canteen-meals/adapters-memory';
import { describeReadRepositoryContracts, describeRepositoryContracts } from '@canteen-meals/repository-contract';

describeRepositoryContracts('in-memory', () => createInMemoryAdapters());

describeReadRepositoryContracts('in-memory', () => createInMemoryAdapters());
