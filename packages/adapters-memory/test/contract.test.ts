import { createInMemoryAdapters } from '@meals/adapters-memory';
import { describeReadRepositoryContracts, describeRepositoryContracts } from '@meals/repository-contract';

describeRepositoryContracts('in-memory', () => createInMemoryAdapters());

describeReadRepositoryContracts('in-memory', () => createInMemoryAdapters());
