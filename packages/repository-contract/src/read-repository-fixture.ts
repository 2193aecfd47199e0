import type { UserDataRepository } from '@canteen-meals/domain/ports';
import type { RepositoryFixture } from './repository-fixture.js';

/** The write-side repositories plus the read side and the user-data port, all over one fresh store. */
export interface ReadRepositoryFixture extends RepositoryFixture {
  readonly userData: UserDataRepository;
}

export type CreateReadRepositoryFixture = () => ReadRepositoryFixture | Promise<ReadRepositoryFixture>;
