import { extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openPersistence } from '../persistence.js';
import { importJsonMeals } from './import-json-meals.js';
import { importOpenMensaFeed } from './import-openmensa-feed.js';

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
    options: { source: { type: 'string' }, 'not-rateable': { type: 'boolean', default: false } },
  });
  const [file] = positionals;
  if (file === undefined || positionals.length > 1) throw new UsageError(usage);
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const format = extname(path).toLowerCase();
  if (format !== '.xml' && format !== '.json') throw new UsageError(`${file}: expected a .xml or .json file\n${usage}`);
  if (format === '.json' && (values.source !== undefined || values['not-rateable'])) {
    throw new UsageError('--source and --not-rateable apply to OpenMensa feeds (.xml) only');
  }

  const config = loadConfig(process.env);
  const persistence = await openPersistence(config);
  try {
    const report =
      format === '.xml'
        ? await importOpenMensaFeed(path, { source: values.source, rateable: !values['not-rateable'] }, config, persistence)
        : await importJsonMeals(path, persistence);
    console.log(report.join('\n'));
  } finally {
    await persistence.close();
  }
}

importMeals(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`meals:import: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
