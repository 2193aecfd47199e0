import {
  avoidDishRefusals,
  maxAversionsPerPerson,
  savePreferencesRefusals,
  type AvoidDish,
  type GetPreferences,
  type ListAversions,
  type SavePreferences,
} from '@canteen-meals/domain';
import {
  AversionData,
  AversionParams,
  AversionsData,
  AversionsQuery,
  PreferencesBody,
  PreferencesData,
  routePaths,
  successEnvelope,
} from '@canteen-meals/http-contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { authenticatedPrincipal } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { requireJsonBody } from '../json-body.js';
import {
  authenticatedRouteErrors,
  errorResponses,
  jsonBodyErrors,
  writeRouteErrors,
} from '../schemas/error-responses.js';
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

/** The PUT names everything in its path: its body, when one is sent, is an empty object. */
const AversionBody = Type.Object(
  {},
  { additionalProperties: false, description: 'Empty: the path names the dish; the body may be left out' },
);
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

  app.put(
    routePaths.preferences,
    {
      bodyLimit: smallBodyLimit,
      preValidation: requireJsonBody,
      schema: {
        operationId: 'savePreferences',
        summary:
          "Replace the caller's label filter: personalized menus, /me/upcoming and the favourites.upcoming webhook leave out meals carrying any of `without` and keep only those carrying all of `only` (unless ?all=true)",
        body: PreferencesBody,
        response: {
          200: successEnvelope(PreferencesData),
          ...errorResponses([
            ...authenticatedRouteErrors,
            ...jsonBodyErrors,
            ...writeRouteErrors,
            ...wireCodesOf(savePreferencesRefusals),
          ]),
        },
      },
    },
    async (request, reply) => {
      const { userId } = authenticatedPrincipal(request);
      const saved = await savePreferences.execute({ userId, ...request.body });
      if (!saved.ok) return sendRefusal(reply, saved.refusal);
      return { status: 'success' as const, data: { without: [...saved.value.without], only: [...saved.value.only] } };
    },
  );

  app.get(
    routePaths.preferences,
    {
      schema: {
        operationId: 'getPreferences',
        summary: "The caller's label filter; both lists empty when none is set",
        response: { 200: successEnvelope(PreferencesData), ...errorResponses(authenticatedRouteErrors) },
      },
    },
    async (request) => {
      const { filter } = await getPreferences.execute(authenticatedPrincipal(request));
      return { status: 'success' as const, data: { without: [...filter.without], only: [...filter.only] } };
    },
  );

  app.get(
    routePaths.listAversions,
    {
      schema: {
        operationId: 'listAversions',
        summary:
          'The dishes the caller avoids (at most 500), by dish id: their servings are marked avoided: true in personalized answers, and left out with hide=avoided',
        querystring: AversionsQuery,
        response: {
          200: successEnvelope(AversionsData),
          ...errorResponses([...authenticatedRouteErrors, 'invalid_request', 'invalid_cursor']),
        },
      },
    },
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

  for (const avoided of [true, false]) {
    app.route({
      method: avoided ? 'PUT' : 'DELETE',
      url: routePaths.aversion,
      // A PUT without a body is the common call: it is taken as the empty object its schema describes.
      ...(avoided
        ? {
            preValidation: (request: { body: unknown }, _reply: unknown, done: () => void) => {
              request.body ??= {};
              done();
            },
          }
        : {}),
      schema: {
        operationId: avoided ? 'avoidDish' : 'stopAvoidingDish',
        summary: avoided ? 'Avoid a dish: never want to see it (idempotent)' : 'No longer avoid a dish (idempotent)',
        params: AversionParams,
        ...(avoided ? { body: AversionBody } : {}),
        response: {
          200: successEnvelope(AversionData),
          ...errorResponses([...bodylessWriteErrors, ...(avoided ? wireCodesOf(avoidDishRefusals) : [])]),
        },
      },
      handler: async (request, reply) => {
        const { userId } = authenticatedPrincipal(request);
        const dishId = Number((request.params as AversionParams).dish_id);
        const result = await avoidDish.execute({ userId, dishId, avoided });
        if (!result.ok) return sendRefusal(reply, result.refusal);
        return { status: 'success' as const, data: { dish_id: dishId, avoided: result.value } };
      },
    });
  }
};

/** The dish id a cursor of this list continues after, or invalid_cursor for anything it did not hand out. */
function dishIdOfCursor(payload: string | null): number {
  const match = payload === null ? null : /^aversions:([1-9]\d{0,15})$/.exec(payload);
  if (match === null) throw new HttpError('invalid_cursor', 'The cursor is not one this list handed out.');
  return Number(match[1]);
}
