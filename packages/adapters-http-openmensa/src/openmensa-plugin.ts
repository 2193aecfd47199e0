import type { MenuFeedWriter } from '@canteen-meals/domain/ports';
import type { HttpAppPlugin } from '@canteen-meals/adapters-http/plugin-kit';
import { type MenuExportUseCases, menuExportRoutes } from './menu-exports/menu-export-routes.js';
import { openMensaV2Prefix, openMensaV2Url } from './v2/v2-paths.js';
import { type OpenMensaV2UseCases, openMensaV2Routes } from './v2/v2-routes.js';

export interface OpenMensaPluginOptions {
  /** The use cases its routes call, and none other. */
  readonly useCases: OpenMensaV2UseCases & MenuExportUseCases;
  /**
   * Writes a canteen's menu as an OpenMensa feed for `GET /canteens/{id}/openmensa.xml` (the server passes
   * @canteen-meals/adapters-openmensa's writer); absent, that route is not served.
   */
  readonly feedWriter?: MenuFeedWriter | undefined;
}

/**
 * For app developers: OpenMensa's read API v2 at `/api/v2` (public, cached like the menu), and each canteen's menu as
 * an OpenMensa XML feed and as an iCalendar under the API (public, cacheable). Give it to buildHttpApp's `plugins`.
 */
export function openMensaPlugin(options: OpenMensaPluginOptions): HttpAppPlugin {
  const { useCases, feedWriter } = options;
  return {
    name: 'openmensa',
    limitedPrefixes: [openMensaV2Prefix],
    // The paths OpenMensa clients send (`/api/v2//canteens`, `.json`, a trailing `/`) to the v2 routes.
    rewriteUrl: openMensaV2Url,
    register: async (app, { clock, menuCaching, publicBaseUrl, apiPrefix }) => {
      await app.register(menuExportRoutes, {
        getCanteen: useCases.getCanteen,
        getMenuDays: useCases.getMenuDays,
        clock,
        menuCaching,
        feedWriter,
        prefix: apiPrefix,
      });
      await app.register(openMensaV2Routes, {
        getMenuDays: useCases.getMenuDays,
        findCanteenByOpenMensaId: useCases.findCanteenByOpenMensaId,
        listCanteens: useCases.listCanteens,
        menuChanges: useCases.menuChanges,
        clock,
        menuCaching,
        publicBaseUrl,
        prefix: openMensaV2Prefix,
      });
    },
  };
}
