import { Type } from '@sinclair/typebox';
import { successEnvelope } from '../envelope.js';
import {
  exampleMarkedPage,
  exampleMeal,
  exampleMeals,
  exampleRatedPage,
  exampleUpcoming,
  successExample,
} from '../examples.js';
import { LiveQuery, LiveSnapshotData } from '../live-schemas.js';
import { RankingsData, RankingsQuery } from '../rankings-schemas.js';
import {
  MealData,
  MealPageData,
  MealParams,
  MealsData,
  MealsQuery,
  MenuDaysQuery,
  PageQuery,
  PersonalStatesData,
  PublicMealData,
  PublicMealsData,
} from '../read-schemas.js';
import { endpoints } from '../endpoints.js';
import { route } from '../route-contract.js';
import { UpcomingData, UpcomingQuery } from '../upcoming-schemas.js';
import { NotModified } from './user-routes.js';

/** The reads of meals: menus, one meal, the caller's lists and upcoming favourites, rankings, the live day. */
export const readRoutes = {
  getMeals: route({
    ...endpoints.getMeals,
    operationId: 'getMeals',
    summary:
      "Many meals in one request: ?canteen=ID&date=YYYY-MM-DD or ?canteen=ID&from=...&to=... (up to 14 days): public and cacheable without a token, with the caller's marking and rating with one; ?ids=1,2,3 (up to 100) and ?date= of every canteen need a token",
    optionalToken: true,
    querystring: MealsQuery,
    responses: {
      200: Type.Union([successEnvelope(MealsData), successEnvelope(PublicMealsData)], {
        ...successExample(exampleMeals),
        description:
          "With a token: every meal with the caller's marking and rating. Without: the public menu, no personal field",
      }),
      304: NotModified,
    },
  }),
  getPersonalStates: route({
    ...endpoints.getPersonalStates,
    operationId: 'getPersonalStates',
    summary:
      "The caller's own marking and rating of the meals of a canteen's menu that they marked or rated: the small, private part of a personalized menu",
    querystring: MenuDaysQuery,
    responses: { 200: successEnvelope(PersonalStatesData), 304: NotModified },
  }),
  getMeal: route({
    ...endpoints.getMeal,
    operationId: 'getMeal',
    summary: "One meal with its statistics; with a token, also the caller's marking and rating",
    optionalToken: true,
    params: MealParams,
    responses: {
      200: Type.Union([successEnvelope(MealData), successEnvelope(PublicMealData)], {
        ...successExample(exampleMeal),
        description: "With a token: the meal with the caller's marking and rating. Without: its public fields",
      }),
    },
  }),
  listMarkedMeals: route({
    ...endpoints.listMarkedMeals,
    operationId: 'listMarkedMeals',
    summary: "The caller's marked meals, most recently served first",
    querystring: PageQuery,
    responses: { 200: successEnvelope(MealPageData, successExample(exampleMarkedPage)) },
  }),
  listRatedMeals: route({
    ...endpoints.listRatedMeals,
    operationId: 'listRatedMeals',
    summary: 'The meals the caller has rated, with the rating, most recently served first',
    querystring: PageQuery,
    responses: { 200: successEnvelope(MealPageData, successExample(exampleRatedPage)) },
  }),
  getUpcoming: route({
    ...endpoints.getUpcoming,
    operationId: 'getUpcoming',
    summary:
      "The servings in the coming days (today included, on each canteen's clocks) of every dish the caller has marked a serving of, in serving order, with each dish's statistics; at most 500",
    querystring: UpcomingQuery,
    responses: { 200: successEnvelope(UpcomingData, successExample(exampleUpcoming)) },
  }),
  getRankings: route({
    ...endpoints.getRankings,
    operationId: 'getRankings',
    summary:
      "A canteen's meals of some days (?canteen=ID&date=… or &from=…&to=…, up to 31 days) or its dishes (?canteen=ID&scope=dishes), ranked by a score that accounts for the number of votes (unrated last), or by=marks; public and cacheable",
    tags: ['canteens'],
    public: true,
    querystring: RankingsQuery,
    responses: { 200: successEnvelope(RankingsData), 304: NotModified },
  }),
  streamLiveStatistics: route({
    ...endpoints.streamLiveStatistics,
    operationId: 'streamLiveStatistics',
    summary:
      "A canteen's day as Server-Sent Events (public): a `snapshot` event with every meal's statistics, then a `stats` event per meal whose statistics changed (at most 4 a second per meal); `Last-Event-ID` resumes",
    tags: ['canteens'],
    public: true,
    querystring: LiveQuery,
    responses: {
      200: {
        description:
          'text/event-stream: `event: snapshot` (data: `{"meals":[...]}`, every meal) first and whenever the menu changes, ' +
          '`event: stats` (data: one meal) when its figures change; every event has an `id` for `Last-Event-ID`; a ' +
          '`: heartbeat` comment every 15 s. Refusals come before the stream, in the JSON envelope.',
        content: {
          'text/event-stream': {
            schema: Type.String({
              description: `Events whose data is ${JSON.stringify(Object.keys(LiveSnapshotData.properties))} or one meal's figures`,
            }),
          },
        },
      },
    },
  }),
};
