import { accessSummaryOf, type EraseUserData, type ExportUserData, type ListCanteens } from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticatedPrincipal } from '../auth/authenticate.js';
import { knownScopes } from '../auth/principal.js';
import {
  AccessData,
  exampleAccess,
  exampleUserDataErasure,
  exampleUserDataExport,
  routePaths,
  successEnvelope,
  successExample,
  UserDataErasureData,
  UserDataExportData,
} from '@canteen-meals/http-contract';
import { authenticatedRouteErrors, errorResponses, writeRouteErrors } from '../schemas/error-responses.js';
import { refuseFieldsOfEmptyBody } from '../json-body.js';
import { erasureDataOf, userDataExportDataOf } from '../wire-mapping.js';
import { smallBodyLimit } from './meal-routes.js';
import { answerPrivately } from './private-answers.js';

export interface UserDataRoutesOptions {
  readonly exportUserData: ExportUserData;
  readonly eraseUserData: EraseUserData;
  readonly listCanteens: ListCanteens;
}

const exportErrors = errorResponses(authenticatedRouteErrors);
// A DELETE's body is read when one is sent: it needs none, but a broken one or one with a field is refused.
const eraseErrors = errorResponses([
  ...authenticatedRouteErrors,
  ...writeRouteErrors,
  'invalid_request',
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
]);

/** The caller's own data (GDPR art. 15 and 17) and access: always the token's subject, never anyone else's. */
export const userDataRoutes: FastifyPluginAsyncTypebox<UserDataRoutesOptions> = async (app, options) => {
  const { exportUserData, eraseUserData } = options;
  answerPrivately(app);

  app.get(
    routePaths.myAccess,
    {
      schema: {
        operationId: 'getMyAccess',
        summary:
          "Who the token names and what it may do here, at every canteen and per canteen (after the identity provider's roles are mapped)",
        response: {
          200: successEnvelope(AccessData, successExample(exampleAccess)),
          ...exportErrors,
        },
      },
    },
    async (request) => {
      const { userId, scopes, grants } = authenticatedPrincipal(request);
      // A grant for a canteen that does not exist grants nothing, and is not listed.
      const existing = (await options.listCanteens.execute()).map((canteen) => canteen.id);
      const access = accessSummaryOf(grants, existing);
      return {
        status: 'success' as const,
        data: {
          user: userId,
          scopes: [...scopes].filter((scope) => knownScopes.includes(scope)).sort(),
          global: [...access.global],
          canteens: Object.fromEntries([...access.canteens].map(([canteenId, held]) => [canteenId, [...held]])),
        },
      };
    },
  );

  app.get(
    routePaths.myData,
    {
      schema: {
        operationId: 'exportMyData',
        summary: 'Every marking and rating the service holds for the caller',
        response: {
          200: successEnvelope(UserDataExportData, successExample(exampleUserDataExport)),
          ...exportErrors,
        },
      },
    },
    async (request) => {
      const { userId } = authenticatedPrincipal(request);
      return { status: 'success' as const, data: userDataExportDataOf(await exportUserData.execute({ userId })) };
    },
  );

  app.delete(
    routePaths.myData,
    {
      // No body, or `{}` (some clients send one with every DELETE); nothing else.
      config: { optionalBody: true },
      bodyLimit: smallBodyLimit,
      preValidation: refuseFieldsOfEmptyBody,
      schema: {
        operationId: 'eraseMyData',
        summary: "Erase every marking and rating of the caller; the meals' statistics follow. Idempotent",
        response: {
          200: successEnvelope(UserDataErasureData, successExample(exampleUserDataErasure)),
          ...eraseErrors,
        },
      },
    },
    async (request) => {
      const { userId } = authenticatedPrincipal(request);
      return { status: 'success' as const, data: erasureDataOf(await eraseUserData.execute({ userId })) };
    },
  );
};
