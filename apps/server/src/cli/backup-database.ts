import { resolve } from 'node:path';
import { backupSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { loadConfig } from '../config.js';
import { withEnvFile } from '../env-file.js';

/** `pnpm db:backup <file>`: an online, consistent copy of the DATABASE_URL database, safe while the server runs. */
async function backup(file: string | undefined): Promise<void> {
  if (file === undefined) throw new Error('usage: pnpm db:backup <file>');
  const { database } = loadConfig(withEnvFile());
  if (database.kind !== 'sqlite')
    throw new Error('DATABASE_URL is not a sqlite: database; there is nothing to back up');
  const target = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const report = await backupSqliteDatabase(database.path, target);
  console.log(
    `db:backup: ${database.path} -> ${target} (${report.pages} pages, integrity ok: ` +
      `${report.meals} meals, ${report.ratings} ratings, ${report.markings} markings)`,
  );
}

backup(process.argv[2]).catch((error: unknown) => {
  console.error(`db:backup: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
