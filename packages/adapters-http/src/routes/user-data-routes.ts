import type { EraseUserData, ExportUserData } from '@meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticatedPrincipal } from '../auth/authenticate.js';
import { ErrorEnvelope, successEnvelope } from '../schemas/envelope.js';
import { UserDataErasureData, UserDataExportData } from '../schemas/user-data-schemas.js';

export interface UserDataRoutesOptions {
  readonly exportUserData: ExportUserData;
  readonly eraseUserData: EraseUserData;
}

const errorResponses = { '4xx': ErrorEnvelope, '5xx': ErrorEnvelope };

/** The caller's own data (GDPR art. 15 and 17): always the token's subject, never anyone else's. */
export const userDataRoutes: FastifyPluginAsyncTypebox<UserDataRoutesOptions> = async (app, options) => {
  const { exportUserData, eraseUserData } = options;
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.get(
    '/me/data',
    {
      schema: {
        summary: 'Every marking and rating the service holds for the caller',
        response: { 200: successEnvelope(UserDataExportData), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = authenticatedPrincipal(request);
      const data = await exportUserData.execute({ userId });
      const mealFields = ({ id, name, servedAt }: { id: number; name: string; servedAt: Date }) => ({
        meal_id: id,
        name,
        served_at: servedAt.toISOString(),
      });
      return {
        status: 'success' as const,
        data: {
          user_id: data.userId,
          exported_at: data.exportedAt.toISOString(),
          markings: data.markings.map(mealFields),
          ratings: data.ratings.map(({ meal, rating }) => ({ ...mealFields(meal), rating })),
        },
      };
    },
  );

  app.delete(
    '/me/data',
    {
      schema: {
        summary: "Erase every marking and rating of the caller; the meals' statistics follow. Idempotent",
        response: { 200: successEnvelope(UserDataErasureData), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = authenticatedPrincipal(request);
      const erased = await eraseUserData.execute({ userId });
      return {
        status: 'success' as const,
        data: { markings_erased: erased.markings, ratings_erased: erased.ratings },
      };
    },
  );
};
