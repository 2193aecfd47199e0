import { Type, type TLiteral, type TObject, type TSchema, type TString, type TUnsafe } from '@sinclair/typebox';
import { exampleMessageOf, httpStatusOf, type ErrorCode } from '@canteen-meals/http-contract';

export { exampleMessageOf };

/**
 * What is answered before any route is found (no route, an undecodable URL, Node's request deadline, oversized
 * headers): no operation lists these; the document's table of every code does.
 */
export const beforeRoutingErrors = ['not_found', 'invalid_url', 'request_timeout', 'headers_too_large'] as const;

/**
 * What any route can answer, whatever it does: a failure, a refusal while the server shuts down, and a body it is
 * sent beyond its limit (0 bytes for a route that takes none: refused before it is read).
 */
export const everyRouteErrors = ['internal_error', 'service_unavailable', 'payload_too_large'] as const;

/** What a public route (no token needed) can answer, whatever it does: it is limited per client address. */
export const publicRouteErrors = ['rate_limited', ...everyRouteErrors] as const;

/** What every route under /api/v1 can answer, whatever it does: it needs a token and is rate limited. */
export const authenticatedRouteErrors = [
  'unauthenticated',
  'invalid_token',
  'rate_limited',
  ...everyRouteErrors,
] as const;

/** What a route that writes can answer when its database cannot keep the write (gone, read-only, full, failing). */
export const writeRouteErrors = ['storage_unavailable'] as const;

/** What a route with a JSON body can answer before its handler runs. */
export const jsonBodyErrors = [
  'invalid_request',
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
] as const;

export type ErrorEnvelopeSchema<C extends ErrorCode> = TObject<{
  status: TLiteral<'error'>;
  error: TObject<{ code: TUnsafe<C>; message: TString }>;
}>;

type StatusOf<C extends ErrorCode> = (typeof httpStatusOf)[C];
type CodesWithStatus<S extends number> = { [K in ErrorCode]: StatusOf<K> extends S ? K : never }[ErrorCode];

/** One response schema per status of the given codes, each listing the given codes of that status. */
export type ErrorResponses<C extends ErrorCode> = {
  [S in StatusOf<C>]: ErrorEnvelopeSchema<Extract<C, CodesWithStatus<S>>>;
};

/** The error envelope restricted to some codes, as a response schema with one example per code. */
export function errorEnvelopeOf<const C extends ErrorCode>(
  codes: readonly C[],
  description: string,
): ErrorEnvelopeSchema<C> {
  return Type.Object(
    {
      status: Type.Literal('error'),
      error: Type.Object({
        code: Type.Unsafe<C>({ type: 'string', enum: [...codes] }),
        message: Type.String({ description: 'For people, not programs: branch on `code`.' }),
      }),
    },
    {
      description,
      // @fastify/swagger turns this into the media type's named examples.
      'x-examples': Object.fromEntries(
        codes.map((code) => [code, { value: { status: 'error', error: { code, message: exampleMessageOf[code] } } }]),
      ),
    },
  );
}

/**
 * The error responses of a route, one schema per HTTP status, from the one table of error codes:
 * `errorResponses(['meal_not_found', ...authenticatedRouteErrors])` gives 401, 404 and 500.
 */
export function errorResponses<const C extends ErrorCode>(codes: readonly C[]): ErrorResponses<C> {
  const byStatus = new Map<number, C[]>();
  for (const code of new Set(codes)) {
    const status = httpStatusOf[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, TSchema> = {};
  for (const [status, sameStatus] of [...byStatus].sort(([a], [b]) => a - b)) {
    const schema = errorEnvelopeOf(sameStatus, `Error: ${sameStatus.join(', ')}`);
    const headers = headersOfStatus[status];
    responses[status] = headers === undefined ? schema : { ...schema, headers };
  }
  return responses as ErrorResponses<C>;
}

const headersOfStatus: Readonly<Record<number, Record<string, TSchema>>> = {
  401: {
    'www-authenticate': Type.String({ description: 'RFC 6750 challenge: `Bearer`, or `Bearer error="invalid_token"`' }),
  },
  429: { 'retry-after': Type.Integer({ minimum: 0, description: 'Seconds to wait before the next request' }) },
  503: {
    'retry-after': Type.Integer({
      minimum: 0,
      description: 'Seconds to wait before retrying (with `storage_unavailable` and `service_unavailable`)',
    }),
  },
};
