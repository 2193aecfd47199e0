// What the plugin packages (adapters-http-*) build their routes with: the app's own answers, errors and checks.
export { auditActorOf } from './auth/audit-actor.js';
export { authenticatedPrincipal, requireAuthentication } from './auth/authenticate.js';
export { authorizeStaff } from './auth/authorize-staff.js';
export { canteenLocatorOver } from './auth/canteen-locator.js';
export { ifNoneMatchHolds } from './conditional-requests.js';
export { createCursorSeal } from './routes/cursor-seal.js';
export { sendRefusal, wireCodesOf } from './error-mapping.js';
export type { HttpAppPlugin, HttpPluginContext } from './http-plugins.js';
export { HttpError } from './http-error.js';
export { requireJsonBody } from './json-body.js';
export type { PushOptions, PushUseCases } from './push-options.js';
export { answerPrivately } from './routes/private-answers.js';
export { notModified, publicCacheControl } from './routes/fresh-answers.js';
export type { MenuCachingOptions } from './routes/menu-routes.js';
export { localDateOf } from './routes/read-params.js';
export {
  authenticatedRouteErrors,
  errorResponses,
  jsonBodyErrors,
  publicRouteErrors,
  writeRouteErrors,
} from './schemas/error-responses.js';
export { serveRoute } from './serve-route.js';
export { varyOn } from './vary.js';
