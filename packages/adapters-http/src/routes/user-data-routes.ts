import { accessSummaryOf, type EraseUserData, type ExportUserData, type ListCanteens } from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticatedPrincipal } from '../auth/authenticate.js';
import { knownScopes } from '@canteen-meals/adapters-jwt';
import { routes } from '@canteen-meals/http-contract';
import { authenticatedRouteErrors, writeRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { refuseFieldsOfEmptyBody } from '../json-body.js';
import { erasureDataOf, userDataExportDataOf } from '../wire-mapping.js';
import { smallBodyLimit } from './meal-routes.js';
import { answerPrivately } from './private-answers.js';

export interface UserDataRoutesOptions {
  readonly exportUserData: ExportUserData;
  readonly eraseUserData: EraseUserData;
  readonly listCanteens: ListCanteens;
}

const exportErrors = authenticatedRouteErrors;
// A DELETE's body is read when one is sent: it needs none, but a broken one or one with a field is refused.
const eraseErrors = [
  ...authenticatedRouteErrors,
  ...writeRouteErrors,
  'invalid_request',
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
] as const;

/** The caller's own data (GDPR art. 15 and 17) and access: always the token's subject, never anyone else's. */
export const userDataRoutes: FastifyPluginAsyncTypebox<UserDataRoutesOptions> = async (app, options) => {
  const { exportUserData, eraseUserData } = options;
  answerPrivately(app);

  serveRoute(
    app,
    routes.getMyAccess,
    {
      errors: exportErrors,
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

  serveRoute(
    app,
    routes.exportMyData,
    {
      errors: exportErrors,
    },
    async (request) => {
      const { userId } = authenticatedPrincipal(request);
      return { status: 'success' as const, data: userDataExportDataOf(await exportUserData.execute({ userId })) };
    },
  );

  serveRoute(
    app,
    routes.eraseMyData,
    {
      // No body, or `{}` (some clients send one with every DELETE); nothing else.
      config: { optionalBody: true },
      bodyLimit: smallBodyLimit,
      preValidation: refuseFieldsOfEmptyBody,
      errors: eraseErrors,
    },
    async (request) => {
      const { userId } = authenticatedPrincipal(request);
      return { status: 'success' as const, data: erasureDataOf(await eraseUserData.execute({ userId })) };
    },
  );
};
