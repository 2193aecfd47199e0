import { Type } from '@sinclair/typebox';
import { successEnvelope } from '../envelope.js';
import { exampleAccess, exampleUserDataErasure, exampleUserDataExport, successExample } from '../examples.js';
import {
  AversionData,
  AversionParams,
  AversionsData,
  AversionsQuery,
  LabelsData,
  labelsLegend,
  PreferencesBody,
  PreferencesData,
} from '../label-schemas.js';
import {
  NotificationSettingsBody,
  NotificationSettingsData,
  PushStatusData,
  PushSubscriptionBody,
  PushSubscriptionData,
  PushSubscriptionQuery,
  PushSubscriptionsData,
  TestPushData,
} from '../push-schemas.js';
import { endpoints } from '../endpoints.js';
import { route } from '../route-contract.js';
import { AccessData, UserDataErasureData, UserDataExportData } from '../user-data-schemas.js';

/** The answer of a route that sends an ETag, when the request's If-None-Match names the current one. */
export const NotModified = Type.Null({
  description: 'Not modified: the If-None-Match tag is the current one; no body',
});

/** The PUT names everything in its path: its body, when one is sent, is an empty object. */
const AversionBody = Type.Object(
  {},
  { additionalProperties: false, description: 'Empty: the path names the dish; the body may be left out' },
);

/** What a person keeps here (label filter, avoided dishes, push, their data) and the label vocabulary. */
export const userRoutes = {
  listLabels: route({
    ...endpoints.listLabels,
    operationId: 'listLabels',
    summary:
      'The label vocabulary: allergens (EU 1169/2011 Annex II with sub-kinds), declared additives, diets and ingredients (public)',
    tags: ['labels'],
    public: true,
    responses: { 200: successEnvelope(LabelsData, successExample(labelsLegend)), 304: NotModified },
  }),
  savePreferences: route({
    ...endpoints.savePreferences,
    operationId: 'savePreferences',
    summary:
      "Replace the caller's label filter: personalized menus, /me/upcoming and the favourites.upcoming webhook leave out meals carrying any of `without` and keep only those carrying all of `only` (unless ?all=true)",
    body: PreferencesBody,
    responses: { 200: successEnvelope(PreferencesData) },
  }),
  getPreferences: route({
    ...endpoints.getPreferences,
    operationId: 'getPreferences',
    summary: "The caller's label filter; both lists empty when none is set",
    responses: { 200: successEnvelope(PreferencesData) },
  }),
  listAversions: route({
    ...endpoints.listAversions,
    operationId: 'listAversions',
    summary:
      'The dishes the caller avoids (at most 500), by dish id: their servings are marked avoided: true in personalized answers, and left out with hide=avoided',
    querystring: AversionsQuery,
    responses: { 200: successEnvelope(AversionsData) },
  }),
  avoidDish: route({
    ...endpoints.avoidDish,
    operationId: 'avoidDish',
    summary: 'Avoid a dish: never want to see it (idempotent)',
    params: AversionParams,
    body: AversionBody,
    responses: { 200: successEnvelope(AversionData) },
  }),
  stopAvoidingDish: route({
    ...endpoints.stopAvoidingDish,
    operationId: 'stopAvoidingDish',
    summary: 'No longer avoid a dish (idempotent)',
    params: AversionParams,
    responses: { 200: successEnvelope(AversionData) },
  }),
  getPushStatus: route({
    ...endpoints.getPushStatus,
    operationId: 'getPushStatus',
    summary: 'Whether this server sends Web Push notifications, and its VAPID public key (public, cacheable)',
    public: true,
    responses: { 200: successEnvelope(PushStatusData) },
  }),
  savePushSubscription: route({
    ...endpoints.savePushSubscription,
    operationId: 'savePushSubscription',
    summary:
      "Subscribe the caller's browser (its PushSubscription.toJSON()): 201 when new, 200 when the endpoint is known (it moves to the caller); at most 10 a person, the oldest goes",
    body: PushSubscriptionBody,
    responses: { 200: successEnvelope(PushSubscriptionData), 201: successEnvelope(PushSubscriptionData) },
  }),
  listPushSubscriptions: route({
    ...endpoints.listPushSubscriptions,
    operationId: 'listPushSubscriptions',
    summary: "The caller's push subscriptions, oldest first: id, the push service's origin, when (never the keys)",
    responses: { 200: successEnvelope(PushSubscriptionsData) },
  }),
  removePushSubscription: route({
    ...endpoints.removePushSubscription,
    operationId: 'removePushSubscription',
    summary:
      "Remove the caller's subscription with that endpoint (another person's stays); 204 whether or not there was one",
    querystring: PushSubscriptionQuery,
    responses: { 204: Type.Null({ description: 'Removed, or there was none of the caller with that endpoint' }) },
  }),
  sendTestPush: route({
    ...endpoints.sendTestPush,
    operationId: 'sendTestPush',
    summary:
      'Send "Notifications work" to each of the caller\'s subscriptions now; answers each outcome (a gone one is removed)',
    body: Type.Object({}, { additionalProperties: false, description: 'Empty: the body may be left out' }),
    responses: { 200: successEnvelope(TestPushData) },
  }),
  saveNotificationSettings: route({
    ...endpoints.saveNotificationSettings,
    operationId: 'saveNotificationSettings',
    summary:
      'What the caller is notified of: their favourites served today (default on), a marked meal sold out (default off), and in which language',
    body: NotificationSettingsBody,
    responses: { 200: successEnvelope(NotificationSettingsData) },
  }),
  getNotificationSettings: route({
    ...endpoints.getNotificationSettings,
    operationId: 'getNotificationSettings',
    summary: "The caller's notification settings (the defaults when none were set)",
    responses: { 200: successEnvelope(NotificationSettingsData) },
  }),
  getMyAccess: route({
    ...endpoints.getMyAccess,
    operationId: 'getMyAccess',
    summary:
      "Who the token names and what it may do here, at every canteen and per canteen (after the identity provider's roles are mapped)",
    responses: { 200: successEnvelope(AccessData, successExample(exampleAccess)) },
  }),
  exportMyData: route({
    ...endpoints.exportMyData,
    operationId: 'exportMyData',
    summary: 'Every marking and rating the service holds for the caller',
    responses: { 200: successEnvelope(UserDataExportData, successExample(exampleUserDataExport)) },
  }),
  eraseMyData: route({
    ...endpoints.eraseMyData,
    operationId: 'eraseMyData',
    summary: "Erase every marking and rating of the caller; the meals' statistics follow. Idempotent",
    responses: { 200: successEnvelope(UserDataErasureData, successExample(exampleUserDataErasure)) },
  }),
};
