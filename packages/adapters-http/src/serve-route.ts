import type { ErrorCode, RouteContract } from '@canteen-meals/http-contract';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import { bearerAuth } from './docs/api-docs.js';
import { errorResponses, type ErrorResponses } from './schemas/error-responses.js';

/** The app a plugin of this adapter receives: schemas typed by TypeBox. */
export type TypeBoxApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

type SchemaPart<R, K extends string> = R extends { readonly [P in K]: infer S } ? S : undefined;

/** The Fastify schema of a route object with its error answers: what types the handler's request and reply. */
export interface ServedSchema<R extends RouteContract, C extends ErrorCode> extends FastifySchema {
  params: SchemaPart<R, 'params'>;
  querystring: SchemaPart<R, 'querystring'>;
  body: SchemaPart<R, 'body'>;
  response: R['responses'] & ErrorResponses<C>;
}

export type ServedHandler<R extends RouteContract, C extends ErrorCode> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  ServedSchema<R, C>,
  TypeBoxTypeProvider,
  FastifyBaseLogger
>;

/** What the server adds to a route object: the errors it answers, its guards and limits. */
export interface ServeOptions<C extends ErrorCode>
  extends Pick<RouteShorthandOptions, 'bodyLimit' | 'config' | 'onRequest' | 'preValidation'> {
  /** Every error code the route answers (its guards', its body's, its use cases' refusals'), documented by status. */
  readonly errors: readonly C[];
}

/**
 * Registers a route object of the wire contract: its method, path and schemas as the contract writes them, the error
 * answers of `options.errors`, and a handler typed by the contract's params, query and body.
 */
export function serveRoute<const R extends RouteContract, const C extends ErrorCode>(
  app: TypeBoxApp,
  route: R,
  { errors, ...options }: ServeOptions<C>,
  handler: ServedHandler<R, C>,
): void {
  const schema = {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.tags === undefined ? {} : { tags: [...route.tags] }),
    ...(route.public === true ? { security: [] } : {}),
    ...(route.optionalToken === true ? { security: [{ [bearerAuth]: [] }, {}] } : {}),
    ...(route.params === undefined ? {} : { params: route.params }),
    ...(route.querystring === undefined ? {} : { querystring: route.querystring }),
    ...(route.body === undefined ? {} : { body: route.body }),
    response: { ...route.responses, ...errorResponses(errors) },
  };
  app.route({ method: route.method, url: route.path, ...options, schema, handler: handler as RouteHandlerMethod });
}
