import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteAdapters, openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { describeAuditLogContract } from '@canteen-meals/repository-contract';

// A real file per test, in WAL mode with foreign keys, as the server opens it.
describeAuditLogContract('SQLite', () => {
  const folder = mkdtempSync(join(tmpdir(), 'meals-audit-'));
  const db = openSqliteDatabase(join(folder, 'meals.db'));
  return {
    ...createSqliteAdapters(db),
    cleanup: () => {
      db.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
});
