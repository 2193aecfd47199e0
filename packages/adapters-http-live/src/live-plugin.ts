import type { HttpAppPlugin } from '@canteen-meals/adapters-http/plugin-kit';
import { type LiveOptions, type LiveRoutesOptions, liveRoutes } from './live-routes.js';

export interface LivePluginOptions {
  /** The use cases its route calls, and none other. */
  readonly useCases: Omit<LiveRoutesOptions, 'live'>;
  /** Limits, heartbeat, coalescing of the streams; see defaultLiveOptions. */
  readonly live?: Partial<LiveOptions> | undefined;
}

/**
 * The live statistics of a canteen's day as Server-Sent Events at `GET /api/v1/live` (public), following the menu
 * changes of the hub it is given. Give it to buildHttpApp's `plugins`.
 */
export function livePlugin(options: LivePluginOptions): HttpAppPlugin {
  return {
    name: 'live',
    register: async (app, { apiPrefix }) => {
      await app.register(liveRoutes, {
        getPublicMenu: options.useCases.getPublicMenu,
        menuChanges: options.useCases.menuChanges,
        live: options.live,
        prefix: apiPrefix,
      });
    },
  };
}
