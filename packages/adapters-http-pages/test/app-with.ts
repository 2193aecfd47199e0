import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { buildHttpApp, type HttpAppOptions, httpUseCasesOf } from '@canteen-meals/adapters-http';
import { createUseCases } from '@canteen-meals/domain';
import { type PagesPluginOptions, pagesPlugin } from '../src/index.js';

export const secret = 'route-test-secret-of-at-least-32-bytes!!';
const timeZone = 'Europe/Berlin';

/**
 * The real HTTP app over in-memory adapters with the pages plugin, with whatever verifier and page options a test
 * needs.
 */
export async function buildAppWith(
  options: Omit<HttpAppOptions, 'useCases' | 'plugins'> & Omit<PagesPluginOptions, 'webAssets'>,
) {
  const { app: appPage, dashboard, console, signIn, ...http } = options;
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone }));
  const clock = new FixedClock(new Date('2026-03-10T12:00:00Z'));
  const useCases = createUseCases(adapters, clock, { start: '11:00', timeZone });
  const pages: PagesPluginOptions = {
    ...(appPage === undefined ? {} : { app: appPage }),
    ...(dashboard === undefined ? {} : { dashboard }),
    ...(console === undefined ? {} : { console }),
    ...(signIn === undefined ? {} : { signIn }),
  };
  const app = await buildHttpApp({ ...http, useCases: httpUseCasesOf(useCases), plugins: [pagesPlugin(pages)] });
  return { app, adapters };
}
