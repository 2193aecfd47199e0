import type { HttpAppPlugin } from '@canteen-meals/adapters-http/plugin-kit';
import { appPage, consolePage, dashboardPage, type PageSignIn, pageRoutes, signInPageOptions } from './page-routes.js';
import type { WebAssets } from './web-assets.js';

export interface PagesPluginOptions {
  /** Serve the students' app at / (with its service worker and manifests), a page on the public API (default true). */
  readonly app?: boolean;
  /** Serve the kitchen dashboard at /dashboard, a page on the public API (default true). */
  readonly dashboard?: boolean;
  /** Serve the admin console at /admin, a page on the admin API that signs in with meals:write (default true). */
  readonly console?: boolean;
  /** Sign-in for the pages with OpenID Connect (OIDC_ISSUER, OIDC_CLIENT_ID); absent: they offer a pasted token. */
  readonly signIn?: PageSignIn | undefined;
  /** Where the built pages come from (tests); default: the web package's build, read on first use. */
  readonly webAssets?: () => WebAssets;
}

/**
 * The browser pages (packages/web) on the API, with a strict Content-Security-Policy of their own: they call the API
 * as any other app does, so they need no use case. Give it to buildHttpApp's `plugins`, after the route packages.
 */
export function pagesPlugin(options: PagesPluginOptions = {}): HttpAppPlugin {
  const pages = [
    ...((options.app ?? true) ? [appPage] : []),
    ...((options.dashboard ?? true) ? [dashboardPage] : []),
    ...((options.console ?? true) ? [consolePage] : []),
  ];
  return {
    name: 'pages',
    register: async (app) => {
      if (pages.length === 0) return;
      await app.register(pageRoutes, {
        pages,
        ...signInPageOptions(options.signIn),
        ...(options.webAssets === undefined ? {} : { webAssets: options.webAssets }),
      });
    },
  };
}
