import { readFileSync } from 'node:fs';
import type { OpenMensaFeed } from '@canteen-meals/adapters-openmensa';
import { defaultCanteenId, type Canteen, type UseCases } from '@canteen-meals/domain';
import type { Config } from '../config.js';
import { menuImportReport } from './menu-import-report.js';
import { valueOrThrow } from '../refused.js';
import { readFeedInWorker } from '../feeds/worker-feed-reader.js';

export interface FeedImportOptions {
  /** The source name in every meal's key; defaults to the canteen id given, else to the feed's canteen name. */
  readonly source: string | undefined;
  readonly rateable: boolean;
  /** The canteen the menu belongs to (it must exist); absent: `default`. */
  readonly canteen?: string | undefined;
}

/** A feed read and checked whole, with the source its meals will be keyed by: nothing is opened or written yet. */
export interface PreparedFeed {
  readonly path: string;
  readonly feed: OpenMensaFeed;
  readonly source: string;
  readonly rateable: boolean;
  readonly canteenId: string;
}

/**
 * Reads and checks an OpenMensa v2 feed before any database is opened; throws, saying why, for a feed it cannot take.
 * `path` names the feed in messages (a file or a URL); `bytes`, when given, is its content (else the file is read).
 * Read in a thread within the server's budget, as the feeds the server fetches: a hostile feed stops the import with
 * a message instead of holding the command for hours.
 */
export async function prepareOpenMensaFeed(
  path: string,
  options: FeedImportOptions,
  bytes?: Buffer,
): Promise<PreparedFeed> {
  const feed = await readFeedInWorker(bytes ?? readFileSync(path));
  const source = options.source ?? options.canteen ?? feed.canteenName;
  if (source === null) {
    throw new Error(
      `${path} names no canteen (<canteen><name>): pass --canteen <id> or --source <name> to say which canteen it is`,
    );
  }
  return { path, feed, source, rateable: options.rateable, canteenId: options.canteen ?? defaultCanteenId };
}

/** A prepared OpenMensa v2 feed, imported in one transaction. */
export async function importOpenMensaFeed(
  { path, feed, source, rateable, canteenId }: PreparedFeed,
  config: Pick<Config, 'serviceStart'>,
  { importMenu, getCanteen, saveCanteen }: Pick<UseCases, 'importMenu' | 'getCanteen' | 'saveCanteen'>,
): Promise<string[]> {
  const canteen = valueOrThrow(await getCanteen.execute(canteenId));
  const plan = valueOrThrow(await importMenu.execute({ source, days: feed.days, rateable, canteenId }));
  const filled = filledFromFeed(canteen, feed);
  if (filled.fields.length > 0) valueOrThrow(await saveCanteen.execute(filled.canteen));
  const report = menuImportReport(plan, {
    path,
    version: feed.version,
    source,
    days: feed.days.length,
    closedDays: feed.days.filter((day) => day.closed).length,
    serviceStart: config.serviceStart,
    timeZone: canteen.timeZone,
  });
  const filledLine = `canteen ${canteen.id}: filled ${filled.fields.join(', ')} from the feed's <canteen> metadata`;
  return filled.fields.length > 0 ? [...report, filledLine] : report;
}

/** The feed's metadata fills what the canteen leaves empty (city, address, coordinates); nothing set is replaced. */
function filledFromFeed(canteen: Canteen, feed: OpenMensaFeed): { canteen: Canteen; fields: string[] } {
  const { city, address, coordinates } = feed.canteen;
  const fields: string[] = [];
  const fill = <T>(field: string, current: T | null, offered: T | null): T | null => {
    if (current !== null || offered === null) return current;
    fields.push(field);
    return offered;
  };
  return {
    canteen: {
      ...canteen,
      city: fill('city', canteen.city, city),
      address: fill('address', canteen.address, address),
      coordinates: fill('coordinates', canteen.coordinates, coordinates),
    },
    fields,
  };
}
