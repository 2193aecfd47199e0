import { loadConfig } from '../config.js';
import { withEnvFile } from '../env-file.js';
import { openPersistence } from '../persistence.js';

/**
 * `pnpm db:init`: creates the DATABASE_URL database if it is missing and brings its schema up to date, then exits.
 * In production this is the deliberate step that a server start never takes by itself (unless DATABASE_CREATE=1).
 */
async function init(): Promise<void> {
  const config = loadConfig(withEnvFile());
  const persistence = await openPersistence({ ...config, databaseCreate: true });
  await persistence.close();
  const where =
    config.database.kind === 'sqlite'
      ? `SQLite at ${config.database.path}`
      : config.database.kind === 'postgres'
        ? 'PostgreSQL'
        : 'in memory (nothing is kept)';
  console.log(`db:init: the database is ready, migrations applied (${where})`);
}

init().catch((error: unknown) => {
  console.error(`db:init: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
