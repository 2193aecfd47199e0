export {
  appPath,
  assetPath,
  consolePath,
  dashboardContentSecurityPolicy,
  dashboardPath,
  type PageSignIn,
  pageContentSecurityPolicy,
  signInPageOptions,
} from './page-routes.js';
export { pagesPlugin, type PagesPluginOptions } from './pages-plugin.js';
