// The wire contract of the meals API: what travels between a client and the server, and nothing that runs either.
export { apiPrefix, canteenPath, dishPath, fillPath, mealPath, routePaths } from './routes.js';
export { endpoints } from './endpoints.js';
export {
  requestOf,
  route,
  type CallInput,
  type Endpoint,
  type HttpMethod,
  type OpenApiResponse,
  type PathParameterNames,
  type PathParameters,
  type RouteContract,
  type RouteRequest,
} from './route-contract.js';
export { routes } from './api-routes.js';
export { NotModified } from './routes/user-routes.js';
export { errorCodes, exampleMessageOf, httpStatusOf, type ErrorCode } from './error-codes.js';
export { ErrorEnvelope, successEnvelope } from './envelope.js';
export * from './canteen-schemas.js';
export * from './dish-schemas.js';
export * from './meal-schemas.js';
export * from './read-schemas.js';
export * from './report-schemas.js';
export * from './rankings-schemas.js';
export * from './user-data-schemas.js';
export * from './upcoming-schemas.js';
export * from './examples.js';
export * from './live-schemas.js';
export * from './webhook-schemas.js';
export * from './webhook-event-schemas.js';
export * from './webhook-examples.js';
export * from './label-schemas.js';
export * from './push-schemas.js';
export * from './audit-schemas.js';
