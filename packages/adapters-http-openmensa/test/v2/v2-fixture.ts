import { writeOpenMensaFeed } from '@canteen-meals/adapters-openmensa';
import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { createUseCases, type Canteen, type MenuDay, type MenuItem } from '@canteen-meals/domain';
import {
  buildHttpApp,
  createHmacTokenVerifier,
  type HttpAppOptions,
  httpUseCasesOf,
} from '@canteen-meals/adapters-http';
import { openMensaPlugin } from '../../src/index.js';

/** Noon UTC in Berlin, where adapters-http's route tests stand too. */
export const now = new Date('2026-03-10T12:00:00Z');
export const secret = 'route-test-secret-of-at-least-32-bytes!!';
export const timeZone = 'Europe/Berlin';

/** 2026-03-10 in Berlin, where `now` (noon UTC) falls. */
export const today = '2026-03-10';

export const academica: Canteen = {
  id: 'mensa-academica',
  name: 'Mensa Academica',
  timeZone,
  city: 'Aachen',
  address: 'Pontwall 3, 52062 Aachen',
  coordinates: { lat: 50.77964, lng: 6.07838 },
  feeds: [],
  openmensaId: 187,
};

/** A menu item with what a test states, and a category. */
export function item(name: string, extra: Partial<MenuItem> = {}): MenuItem {
  return { category: 'Hauptgericht', name, notes: [], prices: {}, ...extra };
}

/** The real app over in-memory adapters at `now`, with `canteens` saved and `menus` imported into them. */
export async function v2App(
  options: {
    readonly canteens?: readonly Canteen[];
    readonly menus?: Readonly<Record<string, readonly MenuDay[]>>;
    readonly menuCaching?: HttpAppOptions['menuCaching'];
    readonly trustProxy?: HttpAppOptions['trustProxy'];
    readonly corsOrigins?: HttpAppOptions['corsOrigins'];
    readonly publicBaseUrl?: HttpAppOptions['publicBaseUrl'];
  } = {},
) {
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone }));
  const clock = new FixedClock(now);
  // The server's use cases; the routes here send no webhook, so none of its ports.
  const useCases = createUseCases(adapters, clock, { start: '11:00', timeZone });
  for (const canteen of options.canteens ?? [academica]) {
    const saved = await useCases.saveCanteen.execute(canteen);
    if (!saved.ok) throw new Error(saved.refusal.message);
  }
  for (const [canteenId, days] of Object.entries(options.menus ?? {})) {
    const imported = await useCases.importMenu.execute({
      source: `feed-${canteenId}`,
      days,
      rateable: true,
      canteenId,
    });
    if (!imported.ok) throw new Error(imported.refusal.message);
  }
  const app = await buildHttpApp({
    useCases: httpUseCasesOf(useCases),
    plugins: [openMensaPlugin({ useCases, feedWriter: { write: writeOpenMensaFeed } })],
    clock,
    verifyToken: createHmacTokenVerifier({ secret }),
    ...(options.menuCaching === undefined ? {} : { menuCaching: options.menuCaching }),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    ...(options.corsOrigins === undefined ? {} : { corsOrigins: options.corsOrigins }),
    ...(options.publicBaseUrl === undefined ? {} : { publicBaseUrl: options.publicBaseUrl }),
  });
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
  return { app, adapters, clock, useCases, get };
}
