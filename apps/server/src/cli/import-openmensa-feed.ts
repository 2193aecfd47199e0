import { readFileSync } from 'node:fs';
import { readOpenMensaFeed } from '@meals/adapters-openmensa';
import { ImportMenu } from '@meals/domain';
import type { Config } from '../config.js';
import type { Persistence } from '../persistence.js';
import { menuImportReport } from './menu-import-report.js';

export interface FeedImportOptions {
  /** The source name in every meal's key; defaults to the feed's canteen name. */
  readonly source: string | undefined;
  readonly rateable: boolean;
}

/** An OpenMensa v2 feed, checked whole before anything is written, then imported in one transaction. */
export async function importOpenMensaFeed(
  path: string,
  options: FeedImportOptions,
  config: Pick<Config, 'serviceStart' | 'timeZone'>,
  persistence: Persistence,
): Promise<string[]> {
  const feed = readOpenMensaFeed(readFileSync(path));
  const source = options.source ?? feed.canteenName;
  if (source === null) {
    throw new Error(`${path} names no canteen (<canteen><name>): pass --source <name> to say which canteen it is`);
  }
  const serviceTime = { start: config.serviceStart, timeZone: config.timeZone };
  const plan = await new ImportMenu({ mealSources: persistence.mealSources, serviceTime }).execute({
    source,
    days: feed.days,
    rateable: options.rateable,
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
