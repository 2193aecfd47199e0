import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { UseCases } from '@canteen-meals/domain';
import { loadConfig, type Config } from '../config.js';
import { createContainer, tokens } from '../composition-root.js';
import { openPersistence } from '../persistence.js';
import { importJsonMeals, prepareJsonMeals } from './import-json-meals.js';
import { importOpenMensaFeed, prepareOpenMensaFeed } from './import-openmensa-feed.js';

const usage = [
  'usage: pnpm meals:import <feed.xml> [--source <name>] [--not-rateable]   an OpenMensa v2 feed',
  '       pnpm meals:import <meals.json>                                     the PUT /api/v1/admin/meals body',
].join('\n');

class UsageError extends Error {}

/** `pnpm meals:import <file>`: the file's extension says its format. */
async function importMeals(args: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      source: { type: 'string' },
      'not-rateable': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const [file] = positionals;
  if (file === undefined || positionals.length > 1) throw new UsageError(usage);
  if (/^https?:\/\//i.test(file)) {
    throw new Error('importing from a URL is not supported yet; download the feed and pass the file');
  }
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const format = extname(path).toLowerCase();
  if (format !== '.xml' && format !== '.json') throw new UsageError(`${file}: expected a .xml or .json file\n${usage}`);
  if (format === '.json' && (values.source !== undefined || values['not-rateable'])) {
    throw new UsageError('--source and --not-rateable apply to OpenMensa feeds (.xml) only');
  }

  const config = loadConfig(process.env);
  // Read and check the whole input before the database is opened: a refused file leaves no database behind.
  const prepared =
    format === '.xml'
      ? { format, feed: prepareOpenMensaFeed(path, { source: values.source, rateable: !values['not-rateable'] }) }
      : { format, meals: prepareJsonMeals(path) };
  await withNewDatabaseRemovedOnFailure(config, async () => {
    const persistence = await openPersistence(config);
    try {
      // The server's own registrations: the same use cases, the same rules.
      const useCases = createContainer(config, { persistence }).resolve<UseCases>(tokens.useCases);
      const report =
        prepared.feed !== undefined
          ? await importOpenMensaFeed(prepared.feed, config, useCases)
          : await importJsonMeals(path, prepared.meals, useCases);
      console.log(report.join('\n'));
    } finally {
      await persistence.close();
    }
  });
}

/** A SQLite file (and folder) that this import created is removed again when the import fails. */
async function withNewDatabaseRemovedOnFailure(config: Config, work: () => Promise<void>): Promise<void> {
  if (config.database.kind !== 'sqlite' || config.database.path === ':memory:') return work();
  const { path } = config.database;
  const folder = dirname(path);
  const folderExisted = existsSync(folder);
  if (existsSync(path)) return work();
  try {
    await work();
  } catch (error) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
    if (!folderExisted && existsSync(folder) && readdirSync(folder).length === 0) rmdirSync(folder);
    throw error;
  }
}

importMeals(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`meals:import: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
