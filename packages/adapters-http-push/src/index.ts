export { pushPlugin } from './push-plugin.js';
export { pushRoutes, pushStatusRoute } from './push-routes.js';
