import {
  avoidDishRefusals,
  maxAversionsPerPerson,
  savePreferencesRefusals,
  type AvoidDish,
  type GetPreferences,
  type ListAversions,
  type SavePreferences,
} from '@canteen-meals/domain';
import { routes } from '@canteen-meals/http-contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticatedPrincipal } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { requireJsonBody } from '../json-body.js';
import { authenticatedRouteErrors, jsonBodyErrors, writeRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { HttpError } from '../http-error.js';
import { createCursorSeal } from './cursor-seal.js';
import { answerPrivately } from './private-answers.js';

export interface PreferenceRoutesOptions {
  readonly savePreferences: SavePreferences;
  readonly getPreferences: GetPreferences;
  readonly avoidDish: AvoidDish;
  readonly listAversions: ListAversions;
  /** Signs the list's page cursors (CURSOR_SECRET); absent: a random key of this process. */
  readonly cursorSecret?: string | undefined;
}

const smallBodyLimit = 8 * 1024;

// Fastify reads a body sent with a PUT or DELETE that needs none: a broken one is still refused.
const bodylessWriteErrors = [
  ...authenticatedRouteErrors,
  ...writeRouteErrors,
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
] as const;

/** What the caller keeps server-side about what they eat: a label filter, and dishes they never want to see. */
export const preferenceRoutes: FastifyPluginAsyncTypebox<PreferenceRoutesOptions> = async (app, options) => {
  const { savePreferences, getPreferences, avoidDish, listAversions } = options;
  const cursors = createCursorSeal(options.cursorSecret);
  answerPrivately(app);

  serveRoute(
    app,
    routes.savePreferences,
    {
      bodyLimit: smallBodyLimit,
      preValidation: requireJsonBody,
      errors: [
        ...authenticatedRouteErrors,
        ...jsonBodyErrors,
        ...writeRouteErrors,
        ...wireCodesOf(savePreferencesRefusals),
      ],
    },
    async (request, reply) => {
      const { userId } = authenticatedPrincipal(request);
      const saved = await savePreferences.execute({ userId, ...request.body });
      if (!saved.ok) return sendRefusal(reply, saved.refusal);
      return { status: 'success' as const, data: { without: [...saved.value.without], only: [...saved.value.only] } };
    },
  );

  serveRoute(app, routes.getPreferences, { errors: authenticatedRouteErrors }, async (request) => {
    const { filter } = await getPreferences.execute(authenticatedPrincipal(request));
    return { status: 'success' as const, data: { without: [...filter.without], only: [...filter.only] } };
  });

  serveRoute(
    app,
    routes.listAversions,
    { errors: [...authenticatedRouteErrors, 'invalid_request', 'invalid_cursor'] },
    async (request) => {
      const { userId } = authenticatedPrincipal(request);
      const { limit, cursor } = request.query;
      const page = await listAversions.execute({
        userId,
        limit: limit === undefined ? maxAversionsPerPerson : Number(limit),
        after: cursor === undefined ? null : dishIdOfCursor(cursors.open(userId, cursor)),
      });
      return {
        status: 'success' as const,
        data: {
          aversions: page.aversions.map(({ dishId, since }) => ({ dish_id: dishId, since: since.toISOString() })),
          next_cursor: page.next === null ? null : cursors.seal(userId, `aversions:${page.next}`),
        },
      };
    },
  );

  const setAversion = async (request: FastifyRequest, reply: FastifyReply, dishId: number, avoided: boolean) => {
    const { userId } = authenticatedPrincipal(request);
    const result = await avoidDish.execute({ userId, dishId, avoided });
    if (!result.ok) return sendRefusal(reply, result.refusal);
    return { status: 'success' as const, data: { dish_id: dishId, avoided: result.value } };
  };

  serveRoute(
    app,
    routes.avoidDish,
    {
      // A PUT without a body is the common call: it is taken as the empty object its schema describes.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
      errors: [...bodylessWriteErrors, ...wireCodesOf(avoidDishRefusals)],
    },
    async (request, reply) => setAversion(request, reply, Number(request.params.dish_id), true),
  );
  serveRoute(app, routes.stopAvoidingDish, { errors: bodylessWriteErrors }, async (request, reply) =>
    setAversion(request, reply, Number(request.params.dish_id), false),
  );
};

/** The dish id a cursor of this list continues after, or invalid_cursor for anything it did not hand out. */
function dishIdOfCursor(payload: string | null): number {
  const match = payload === null ? null : /^aversions:([1-9]\d{0,15})$/.exec(payload);
  if (match === null) throw new HttpError('invalid_cursor', 'The cursor is not one this list handed out.');
  return Number(match[1]);
}
