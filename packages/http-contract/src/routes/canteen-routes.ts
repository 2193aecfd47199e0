import { Type } from '@sinclair/typebox';
import {
  AdminCanteensData,
  ArchivedCanteenData,
  CanteenBody,
  CanteenData,
  CanteenParams,
  CanteensData,
  DayClosedBody,
  DayClosedData,
  DayParams,
  FeedParams,
  FeedsData,
  FeedSummaryData,
} from '../canteen-schemas.js';
import { successEnvelope } from '../envelope.js';
import {
  exampleAdminCanteens,
  exampleArchivedCanteen,
  exampleCanteen,
  exampleCanteens,
  exampleSavedCanteen,
  successExample,
} from '../examples.js';
import { endpoints } from '../endpoints.js';
import { route } from '../route-contract.js';

/** The canteens, their days and their feeds. */
export const canteenRoutes = {
  listCanteens: route({
    ...endpoints.listCanteens,
    operationId: 'listCanteens',
    summary: 'Every canteen, by id (public)',
    tags: ['canteens'],
    public: true,
    responses: { 200: successEnvelope(CanteensData, successExample(exampleCanteens)) },
  }),
  getCanteen: route({
    ...endpoints.getCanteen,
    operationId: 'getCanteen',
    summary: 'One canteen (public)',
    tags: ['canteens'],
    public: true,
    params: CanteenParams,
    responses: { 200: successEnvelope(CanteenData, successExample(exampleCanteen)) },
  }),
  saveCanteen: route({
    ...endpoints.saveCanteen,
    operationId: 'saveCanteen',
    summary:
      'Create or replace a canteen; 201 when created, 200 when replaced (meals:manage at the canteen edits it; creating a canteen needs meals:write for every canteen, restoring an archived one meals:write at it)',
    params: CanteenParams,
    body: CanteenBody,
    responses: {
      200: successEnvelope(CanteenData, successExample(exampleSavedCanteen)),
      201: successEnvelope(CanteenData, successExample(exampleSavedCanteen)),
    },
  }),
  archiveCanteen: route({
    ...endpoints.archiveCanteen,
    operationId: 'archiveCanteen',
    summary:
      'Archive a canteen (needs the meals:write scope): it leaves every list, its menus and reads answer 404 and its ' +
      'feeds are no longer fetched; its meals and ratings are kept, and a PUT of the canteen restores it. Idempotent',
    params: CanteenParams,
    responses: { 200: successEnvelope(ArchivedCanteenData, successExample(exampleArchivedCanteen)) },
  }),
  listAdminCanteens: route({
    ...endpoints.listAdminCanteens,
    operationId: 'listAdminCanteens',
    summary:
      "The caller's canteens (every one with meals:write) with their feeds, archived ones too with their archived_at, by id (needs meals:manage or meals:write)",
    responses: { 200: successEnvelope(AdminCanteensData, successExample(exampleAdminCanteens)) },
  }),
  setDayClosed: route({
    ...endpoints.setDayClosed,
    operationId: 'setDayClosed',
    summary:
      'Say that a canteen is closed on a day ({"closed": true}: its meals still to be served are withdrawn) or not ({"closed": false}), as a feed\'s <closed/> does (needs meals:manage at the canteen)',
    params: DayParams,
    body: DayClosedBody,
    responses: { 200: successEnvelope(DayClosedData) },
  }),
  listFeeds: route({
    ...endpoints.listFeeds,
    operationId: 'listFeeds',
    summary: "A canteen's feeds: last attempt and success, HTTP status, duration, counts, last error, next run",
    params: CanteenParams,
    responses: { 200: successEnvelope(FeedsData) },
  }),
  fetchFeed: route({
    ...endpoints.fetchFeed,
    operationId: 'fetchFeed',
    summary: 'Fetch and import one feed now (waits for a fetch of it under way); answers its summary, failed or not',
    params: FeedParams,
    // Nothing to send: no body, or an empty JSON object.
    body: Type.Union([Type.Object({}, { additionalProperties: false }), Type.Null()]),
    responses: { 200: successEnvelope(FeedSummaryData) },
  }),
};
