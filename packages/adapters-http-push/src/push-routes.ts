import {
  endpointOrigin,
  savePushSubscriptionRefusals,
  type NotificationSettings,
  type PushSubscription,
} from '@canteen-meals/domain';
import { routes } from '@canteen-meals/http-contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import {
  answerPrivately,
  authenticatedPrincipal,
  authenticatedRouteErrors,
  HttpError,
  jsonBodyErrors,
  type PushOptions,
  publicRouteErrors,
  requireJsonBody,
  sendRefusal,
  serveRoute,
  wireCodesOf,
  writeRouteErrors,
} from '@canteen-meals/adapters-http/plugin-kit';

const smallBodyLimit = 8 * 1024;

const disabledMessage =
  'Push notifications are off on this server: set WEB_PUSH_PUBLIC_KEY, WEB_PUSH_PRIVATE_KEY and WEB_PUSH_SUBJECT (see docs/notifications.md).';
function sendDisabled(reply: FastifyReply) {
  return reply
    .code(409)
    .send({ status: 'error' as const, error: { code: 'push_disabled' as const, message: disabledMessage } });
}

const subscriptionData = (subscription: PushSubscription) => ({
  id: subscription.id,
  endpoint_origin: endpointOrigin(subscription.endpoint),
  created_at: subscription.createdAt.toISOString(),
});
const settingsData = (settings: NotificationSettings) => ({
  favourites_today: settings.favouritesToday,
  sold_out: settings.soldOut,
  language: settings.language,
});

/** `GET /push` (public, cacheable): whether push is on, and the key a browser subscribes with. */
export const pushStatusRoute: FastifyPluginAsyncTypebox<{ readonly push: PushOptions }> = async (app, { push }) => {
  serveRoute(
    app,
    routes.getPushStatus,
    {
      errors: publicRouteErrors,
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return {
        status: 'success' as const,
        data: push === undefined ? { enabled: false } : { enabled: true, public_key: push.publicKey },
      };
    },
  );
};

/** The caller's push subscriptions and notification settings; `409 push_disabled` while push is off. */
export const pushRoutes: FastifyPluginAsyncTypebox<{ readonly push: PushOptions }> = async (app, { push }) => {
  answerPrivately(app);
  const pushErrors = ['push_disabled'] as const;

  serveRoute(
    app,
    routes.savePushSubscription,
    {
      bodyLimit: smallBodyLimit,
      preValidation: requireJsonBody,
      errors: [
        ...authenticatedRouteErrors,
        ...jsonBodyErrors,
        ...writeRouteErrors,
        ...wireCodesOf(savePushSubscriptionRefusals),
        ...pushErrors,
      ],
    },
    async (request, reply) => {
      if (push === undefined) return sendDisabled(reply);
      const { userId } = authenticatedPrincipal(request);
      const { endpoint, expirationTime, keys } = request.body;
      const saved = await push.savePushSubscription.execute({
        userId,
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        expirationTime: expirationTime === undefined || expirationTime === null ? null : new Date(expirationTime),
      });
      if (!saved.ok) return sendRefusal(reply, saved.refusal);
      return reply
        .code(saved.value.created ? 201 : 200)
        .send({ status: 'success' as const, data: subscriptionData(saved.value.subscription) });
    },
  );

  serveRoute(
    app,
    routes.listPushSubscriptions,
    {
      errors: [...authenticatedRouteErrors, ...pushErrors],
    },
    async (request, reply) => {
      if (push === undefined) return sendDisabled(reply);
      const subscriptions = await push.listPushSubscriptions.execute(authenticatedPrincipal(request));
      return { status: 'success' as const, data: { subscriptions: subscriptions.map(subscriptionData) } };
    },
  );

  serveRoute(
    app,
    routes.removePushSubscription,
    {
      errors: [...authenticatedRouteErrors, 'invalid_request', ...writeRouteErrors, ...pushErrors],
    },
    async (request, reply) => {
      const { endpoint } = request.query;
      if (endpoint === undefined) throw new HttpError('invalid_request', 'missing query parameter "endpoint"');
      if (push === undefined) return sendDisabled(reply);
      await push.removePushSubscription.execute({ ...authenticatedPrincipal(request), endpoint });
      return reply.code(204).send(null);
    },
  );

  serveRoute(
    app,
    routes.sendTestPush,
    {
      bodyLimit: smallBodyLimit,
      // A POST without a body is the common call: it is taken as the empty object its schema describes.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
      errors: [
        ...authenticatedRouteErrors,
        ...writeRouteErrors,
        'invalid_json',
        'invalid_request',
        'unsupported_media_type',
        ...pushErrors,
      ],
    },
    async (request, reply) => {
      if (push === undefined) return sendDisabled(reply);
      const outcomes = await push.sendTestPush.execute(authenticatedPrincipal(request));
      return {
        status: 'success' as const,
        data: {
          results: outcomes.map(({ subscription, outcome, status }) => ({
            id: subscription.id,
            endpoint_origin: endpointOrigin(subscription.endpoint),
            outcome,
            status,
          })),
        },
      };
    },
  );

  serveRoute(
    app,
    routes.saveNotificationSettings,
    {
      bodyLimit: smallBodyLimit,
      preValidation: requireJsonBody,
      errors: [...authenticatedRouteErrors, ...jsonBodyErrors, ...writeRouteErrors, ...pushErrors],
    },
    async (request, reply) => {
      if (push === undefined) return sendDisabled(reply);
      const { userId } = authenticatedPrincipal(request);
      const { favourites_today: favouritesToday = true, sold_out: soldOut = false, language = 'en' } = request.body;
      const saved = await push.saveNotificationSettings.execute({
        userId,
        settings: { favouritesToday, soldOut, language },
      });
      return { status: 'success' as const, data: settingsData(saved) };
    },
  );

  serveRoute(
    app,
    routes.getNotificationSettings,
    {
      errors: [...authenticatedRouteErrors, ...pushErrors],
    },
    async (request, reply) => {
      if (push === undefined) return sendDisabled(reply);
      return {
        status: 'success' as const,
        data: settingsData(await push.getNotificationSettings.execute(authenticatedPrincipal(request))),
      };
    },
  );
};
