// The wire contract of the meals API: what travels between a client and the server, and nothing that runs either.
export { apiPrefix, mealPath, routePaths } from './routes.js';
export { errorCodes, exampleMessageOf, httpStatusOf, type ErrorCode } from './error-codes.js';
export { ErrorEnvelope, successEnvelope } from './envelope.js';
export * from './meal-schemas.js';
export * from './read-schemas.js';
export * from './user-data-schemas.js';
export * from './examples.js';
