// What the plugin packages (adapters-http-*) build their routes with: the app's own answers, errors and checks.
export { ifNoneMatchHolds } from './conditional-requests.js';
export { sendRefusal, wireCodesOf } from './error-mapping.js';
export type { HttpAppPlugin, HttpPluginContext } from './http-plugins.js';
export { HttpError } from './http-error.js';
export { notModified, publicCacheControl } from './routes/fresh-answers.js';
export type { MenuCachingOptions } from './routes/menu-routes.js';
export { localDateOf } from './routes/read-params.js';
export { errorResponses, publicRouteErrors } from './schemas/error-responses.js';
export { varyOn } from './vary.js';
