import { createInMemoryAdapters } from '@meals/adapters-memory';
import { describeRepositoryContracts } from '@meals/repository-contract';

describeRepositoryContracts('in-memory', () => createInMemoryAdapters());
