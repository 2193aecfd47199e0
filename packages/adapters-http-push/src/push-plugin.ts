import type { HttpAppPlugin, PushOptions } from '@canteen-meals/adapters-http/plugin-kit';
import { requireAuthentication } from '@canteen-meals/adapters-http/plugin-kit';
import { pushRoutes, pushStatusRoute } from './push-routes.js';

/**
 * Web Push's routes: `GET /api/v1/push` (public: whether push is on, and the VAPID public key) and the caller's
 * subscriptions and notification settings under `/api/v1/me` (a token required). `push` undefined (no VAPID keys):
 * the routes still answer, the caller's ones 409 `push_disabled`. Give it to buildHttpApp's `plugins`.
 */
export function pushPlugin(options: { readonly push: PushOptions }): HttpAppPlugin {
  return {
    name: 'push',
    register: async (app, { apiPrefix }) => {
      await app.register(
        async (api) => {
          api.addHook('onRequest', requireAuthentication);
          await api.register(pushRoutes, { push: options.push });
        },
        { prefix: apiPrefix },
      );
      await app.register(pushStatusRoute, { push: options.push, prefix: apiPrefix });
    },
  };
}
