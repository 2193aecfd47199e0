// The bearer tokens are a package of their own, free of Fastify; this package's API keeps their names.
export {
  adminScope,
  createHmacTokenVerifier,
  createJwksTokenVerifier,
  createPublicKeyTokenVerifier,
  grantsOfToken,
  InvalidTokenError,
  kitchenScope,
  knownScopes,
  manageScope,
  maxSubjectLength,
  minRsaModulusBits,
  minSecretBytes,
  parseRoleClaimPaths,
  parseRoleScopes,
  publicKeyAlgorithm,
  reportsScope,
  rolesIn,
  scopesGrantedBy,
  signHmacToken,
  splitCanteenSuffix,
  type AsymmetricAlgorithm,
  type ClaimOptions,
  type HmacTokenOptions,
  type JwksTokenOptions,
  type Principal,
  type PublicKeyTokenOptions,
  type RoleMapping,
  type SyncTokenVerifier,
  type TokenClaims,
  type TokenVerifier,
} from '@canteen-meals/adapters-jwt';
export {
  apiPrefix,
  buildHttpApp,
  defaultHttpTimeouts,
  type HttpAppOptions,
  type TrustProxy,
} from './build-http-app.js';
export type { RateLimits } from './limits/rate-limits.js';
export { LocalHitCounter } from './limits/local-hit-counter.js';
export { windowStartOf, type SharedHitCounter } from './limits/shared-hit-counter.js';
export type { SharedRateLimitOptions } from './limits/shared-rate-limit-store.js';
export type { HttpTimeouts } from './limits/server-timeouts.js';
export { redactedLogPaths } from './logging.js';
export { docsPath, openApiPath } from './docs/api-docs.js';
export type { HttpAppPlugin, HttpPluginContext } from './http-plugins.js';
export { type AllHttpUseCases, type HttpUseCases, httpUseCasesOf } from './http-use-cases.js';
export { errorCodes, httpStatusOf, type ErrorCode } from './error-mapping.js';
export { HttpError } from './http-error.js';
export type { MealRoutesOptions } from './routes/meal-routes.js';
export type { ReadRoutesOptions } from './routes/read-routes.js';
export type { ReportRoutesOptions } from './routes/report-routes.js';
export { auditRoutes, type AuditRoutesOptions } from './routes/audit-routes.js';
export { auditActorOf } from './auth/audit-actor.js';
export { defaultMenuCaching, type MenuCachingOptions, type MenuRoutesOptions } from './routes/menu-routes.js';
export type { RankingRoutesOptions } from './routes/ranking-routes.js';
export { noMenuCache, type MenuCacheSettings } from '@canteen-meals/read-models';
export { LiveStats, realTimers, type LiveScheduler, type LiveSubscriber } from '@canteen-meals/read-models';
export type { UpcomingRoutesOptions } from './routes/upcoming-routes.js';
export type { UserDataRoutesOptions } from './routes/user-data-routes.js';
export { createSchemaValidator, mealsFromUpsertDocument, menuFromUpsertDocument } from './schema-validation.js';
export { ErrorEnvelope, successEnvelope } from '@canteen-meals/http-contract';
export {
  authenticatedRouteErrors,
  beforeRoutingErrors,
  errorResponses,
  everyRouteErrors,
  jsonBodyErrors,
  writeRouteErrors,
} from './schemas/error-responses.js';
// A plugin package registers the contract's route objects as this adapter's routes do.
export { serveRoute, type ServeOptions, type TypeBoxApp } from './serve-route.js';
// The wire schemas, also for typed clients: `Static<typeof RateMealBody>` is what the server validates.
export {
  MarkMealBody,
  MarkMealData,
  RateMealBody,
  RateMealData,
  UpsertMealsBody,
  UpsertMealsData,
} from '@canteen-meals/http-contract';
export { MealData, MealPageData, MealsData, MealsQuery, PageQuery } from '@canteen-meals/http-contract';
export { UserDataErasureData, UserDataExportData } from '@canteen-meals/http-contract';
export { buildMetricsApp } from './operations/metrics-app.js';
export { buildStartingApp } from './operations/starting-app.js';
export type {
  MetricsEndpoint,
  OperationsOptions,
  ReadinessCheck,
  RequestObservation,
  RequestObserver,
} from './operations/operations-options.js';
export { maxRequestIdLength, requestIdHeader } from './operations/request-id.js';
export type { PushOptions, PushUseCases } from './push-options.js';
