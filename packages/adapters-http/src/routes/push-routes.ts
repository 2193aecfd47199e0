import {
  endpointOrigin,
  savePushSubscriptionRefusals,
  type GetNotificationSettings,
  type ListPushSubscriptions,
  type NotificationSettings,
  type PushSubscription,
  type RemovePushSubscription,
  type SaveNotificationSettings,
  type SavePushSubscription,
  type SendTestPush,
} from '@canteen-meals/domain';
import {
  NotificationSettingsBody,
  NotificationSettingsData,
  PushStatusData,
  PushSubscriptionBody,
  PushSubscriptionData,
  PushSubscriptionQuery,
  PushSubscriptionsData,
  routePaths,
  successEnvelope,
  TestPushData,
} from '@canteen-meals/http-contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { authenticatedPrincipal } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { HttpError } from '../http-error.js';
import { requireJsonBody } from '../json-body.js';
import {
  authenticatedRouteErrors,
  errorResponses,
  jsonBodyErrors,
  publicRouteErrors,
  writeRouteErrors,
} from '../schemas/error-responses.js';
import { answerPrivately } from './private-answers.js';

/** The use cases of Web Push, present when the server has its VAPID keys. */
export interface PushUseCases {
  readonly savePushSubscription: SavePushSubscription;
  readonly listPushSubscriptions: ListPushSubscriptions;
  readonly removePushSubscription: RemovePushSubscription;
  readonly sendTestPush: SendTestPush;
  readonly getNotificationSettings: GetNotificationSettings;
  readonly saveNotificationSettings: SaveNotificationSettings;
}

/** Web Push on this server: the VAPID public key and the use cases; undefined: off (no keys configured). */
export type PushOptions = (PushUseCases & { readonly publicKey: string }) | undefined;

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
  app.get(
    routePaths.pushStatus,
    {
      schema: {
        operationId: 'getPushStatus',
        summary: 'Whether this server sends Web Push notifications, and its VAPID public key (public, cacheable)',
        security: [],
        response: { 200: successEnvelope(PushStatusData), ...errorResponses(publicRouteErrors) },
      },
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

  app.put(
    routePaths.pushSubscriptions,
    {
      bodyLimit: smallBodyLimit,
      preValidation: requireJsonBody,
      schema: {
        operationId: 'savePushSubscription',
        summary:
          "Subscribe the caller's browser (its PushSubscription.toJSON()): 201 when new, 200 when the endpoint is known (it moves to the caller); at most 10 a person, the oldest goes",
        body: PushSubscriptionBody,
        response: {
          200: successEnvelope(PushSubscriptionData),
          201: successEnvelope(PushSubscriptionData),
          ...errorResponses([
            ...authenticatedRouteErrors,
            ...jsonBodyErrors,
            ...writeRouteErrors,
            ...wireCodesOf(savePushSubscriptionRefusals),
            ...pushErrors,
          ]),
        },
      },
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

  app.get(
    routePaths.pushSubscriptions,
    {
      schema: {
        operationId: 'listPushSubscriptions',
        summary: "The caller's push subscriptions, oldest first: id, the push service's origin, when (never the keys)",
        response: {
          200: successEnvelope(PushSubscriptionsData),
          ...errorResponses([...authenticatedRouteErrors, ...pushErrors]),
        },
      },
    },
    async (request, reply) => {
      if (push === undefined) return sendDisabled(reply);
      const subscriptions = await push.listPushSubscriptions.execute(authenticatedPrincipal(request));
      return { status: 'success' as const, data: { subscriptions: subscriptions.map(subscriptionData) } };
    },
  );

  app.delete(
    routePaths.pushSubscriptions,
    {
      schema: {
        operationId: 'removePushSubscription',
        summary:
          "Remove the caller's subscription with that endpoint (another person's stays); 204 whether or not there was one",
        querystring: PushSubscriptionQuery,
        response: {
          204: Type.Null({ description: 'Removed, or there was none of the caller with that endpoint' }),
          ...errorResponses([...authenticatedRouteErrors, 'invalid_request', ...writeRouteErrors, ...pushErrors]),
        },
      },
    },
    async (request, reply) => {
      const { endpoint } = request.query;
      if (endpoint === undefined) throw new HttpError('invalid_request', 'missing query parameter "endpoint"');
      if (push === undefined) return sendDisabled(reply);
      await push.removePushSubscription.execute({ ...authenticatedPrincipal(request), endpoint });
      return reply.code(204).send(null);
    },
  );

  app.post(
    routePaths.testPush,
    {
      bodyLimit: smallBodyLimit,
      // A POST without a body is the common call: it is taken as the empty object its schema describes.
      preValidation: (request: { body: unknown }, _reply: unknown, done: () => void) => {
        request.body ??= {};
        done();
      },
      schema: {
        operationId: 'sendTestPush',
        summary:
          'Send "Notifications work" to each of the caller\'s subscriptions now; answers each outcome (a gone one is removed)',
        body: Type.Object({}, { additionalProperties: false, description: 'Empty: the body may be left out' }),
        response: {
          200: successEnvelope(TestPushData),
          ...errorResponses([
            ...authenticatedRouteErrors,
            ...writeRouteErrors,
            'invalid_json',
            'invalid_request',
            'unsupported_media_type',
            ...pushErrors,
          ]),
        },
      },
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

  app.put(
    routePaths.notificationSettings,
    {
      bodyLimit: smallBodyLimit,
      preValidation: requireJsonBody,
      schema: {
        operationId: 'saveNotificationSettings',
        summary:
          'What the caller is notified of: their favourites served today (default on), a marked meal sold out (default off), and in which language',
        body: NotificationSettingsBody,
        response: {
          200: successEnvelope(NotificationSettingsData),
          ...errorResponses([...authenticatedRouteErrors, ...jsonBodyErrors, ...writeRouteErrors, ...pushErrors]),
        },
      },
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

  app.get(
    routePaths.notificationSettings,
    {
      schema: {
        operationId: 'getNotificationSettings',
        summary: "The caller's notification settings (the defaults when none were set)",
        response: {
          200: successEnvelope(NotificationSettingsData),
          ...errorResponses([...authenticatedRouteErrors, ...pushErrors]),
        },
      },
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
