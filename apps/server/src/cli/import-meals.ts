import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { UseCases } from '@canteen-meals/domain';
import { fetchFeed } from '@canteen-meals/adapters-outbound';
import { loadConfig, type Config } from '../config.js';
import { withEnvFile } from '../env-file.js';
import { createContainer, tokens } from '../composition-root.js';
import { openPersistence } from '../persistence.js';
import { importJsonMeals, prepareJsonMeals } from './import-json-meals.js';
import { importOpenMensaFeed, prepareOpenMensaFeed } from './import-openmensa-feed.js';

const usage = [
  'usage: pnpm meals:import <feed.xml> [--canteen <id>] [--source <name>] [--not-rateable]   an OpenMensa v2 feed, a file or an http(s) URL',
  '       pnpm meals:import <meals.json>                                                     the PUT /api/v1/admin/meals body',
  "  --canteen <id>  the canteen the feed's menu belongs to (it must exist; default: default)",
].join('\n');

class UsageError extends Error {}

/** `pnpm meals:import <file>`: the file's extension says its format. */
async function importMeals(args: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      source: { type: 'string' },
      canteen: { type: 'string' },
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
  const config = loadConfig(withEnvFile());
  if (/^https?:\/\//i.test(file)) {
    // The service's one way out to other hosts: time and size limits, gzip, retries, no private addresses.
    const fetched = await fetchFeed(file, { allowPrivateNetworks: config.outboundAllowPrivateNetworks });
    if (fetched.status !== 'fetched')
      throw new Error(`${file} answered 304 Not Modified to a request without a condition`);
    const feed = await prepareOpenMensaFeed(
      file,
      { source: values.source, rateable: !values['not-rateable'], canteen: values.canteen },
      fetched.body,
    );
    await withNewDatabaseRemovedOnFailure(config, () =>
      importInto(config, async (useCases) => importOpenMensaFeed(feed, config, useCases)),
    );
    return;
  }
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const format = extname(path).toLowerCase();
  if (format !== '.xml' && format !== '.json') throw new UsageError(`${file}: expected a .xml or .json file\n${usage}`);
  if (format === '.json' && (values.source !== undefined || values['not-rateable'] || values.canteen !== undefined)) {
    throw new UsageError(
      '--canteen, --source and --not-rateable apply to OpenMensa feeds (.xml) only (a JSON body names canteen_id per meal)',
    );
  }

  // Read and check the whole input before the database is opened: a refused file leaves no database behind.
  const prepared =
    format === '.xml'
      ? {
          format,
          feed: await prepareOpenMensaFeed(path, {
            source: values.source,
            rateable: !values['not-rateable'],
            canteen: values.canteen,
          }),
        }
      : { format, meals: prepareJsonMeals(path) };
  await withNewDatabaseRemovedOnFailure(config, () =>
    importInto(config, (useCases) =>
      prepared.feed !== undefined
        ? importOpenMensaFeed(prepared.feed, config, useCases)
        : importJsonMeals(path, prepared.meals, useCases),
    ),
  );
}

/** Opens the database, runs the import with the server's own use cases (the same rules), prints its report. */
async function importInto(config: Config, work: (useCases: UseCases) => Promise<string[]>): Promise<void> {
  const persistence = await openPersistence(config);
  try {
    // Nothing scrapes an import's metrics: it counts none, and does not load prom-client (a process per import).
    const useCases = createContainer(config, { persistence, metrics: null }).resolve<UseCases>(tokens.useCases);
    console.log((await work(useCases)).join('\n'));
  } finally {
    await persistence.close();
  }
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
