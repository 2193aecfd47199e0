import { readFileSync } from 'node:fs';
import { readOpenMensaFeed, type OpenMensaFeed } from '@canteen-meals/adapters-openmensa';
import type { UseCases } from '@canteen-meals/domain';
import type { Config } from '../config.js';
import { menuImportReport } from './menu-import-report.js';

export interface FeedImportOptions {
  /** The source name in every meal's key; defaults to the feed's canteen name. */
  readonly source: string | undefined;
  readonly rateable: boolean;
}

/** A feed read and checked whole, with the source its meals will be keyed by: nothing is opened or written yet. */
export interface PreparedFeed {
  readonly path: string;
  readonly feed: OpenMensaFeed;
  readonly source: string;
  readonly rateable: boolean;
}

/** Reads and checks an OpenMensa v2 feed before any database is opened; throws, saying why, for a feed it cannot take. */
export function prepareOpenMensaFeed(path: string, options: FeedImportOptions): PreparedFeed {
  const feed = readOpenMensaFeed(readFileSync(path));
  const source = options.source ?? feed.canteenName;
  if (source === null) {
    throw new Error(`${path} names no canteen (<canteen><name>): pass --source <name> to say which canteen it is`);
  }
  return { path, feed, source, rateable: options.rateable };
}

/** A prepared OpenMensa v2 feed, imported in one transaction. */
export async function importOpenMensaFeed(
  { path, feed, source, rateable }: PreparedFeed,
  config: Pick<Config, 'serviceStart' | 'timeZone'>,
  { importMenu }: Pick<UseCases, 'importMenu'>,
): Promise<string[]> {
  const plan = await importMenu.execute({
    source,
    days: feed.days,
    rateable,
  });
  return menuImportReport(plan, {
    path,
    version: feed.version,
    source,
    days: feed.days.length,
    closedDays: feed.days.filter((day) => day.closed).length,
    serviceStart: config.serviceStart,
    timeZone: config.timeZone,
  });
}
