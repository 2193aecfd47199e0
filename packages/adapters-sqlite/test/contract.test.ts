import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteAdapters, openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { describeReadRepositoryContracts, describeRepositoryContracts } from '@canteen-meals/repository-contract';

// A real file per test, so that the suite runs in WAL mode with foreign keys, as the server does.
const freshDatabaseFile = () => {
  const folder = mkdtempSync(join(tmpdir(), 'meals-contract-'));
  const db = openSqliteDatabase(join(folder, 'meals.db'));
  return {
    ...createSqliteAdapters(db),
    cleanup: () => {
      db.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
};

describeRepositoryContracts('SQLite', freshDatabaseFile);
describeReadRepositoryContracts('SQLite', freshDatabaseFile);
