import { maxReportDays } from '@canteen-meals/domain';
import { Type } from '@sinclair/typebox';
import { DishData, DishParams, MergeDishesBody, WithdrawMealData } from '../dish-schemas.js';
import { successEnvelope } from '../envelope.js';
import {
  exampleAvailabilityAnswer,
  exampleMarkAnswer,
  exampleRateAnswer,
  exampleRatingsReport,
  exampleUpsertAnswer,
} from '../examples.js';
import {
  AvailabilityBody,
  AvailabilityData,
  MarkMealBody,
  MarkMealData,
  RateMealBody,
  RateMealData,
  UpsertMealsBody,
  UpsertMealsData,
} from '../meal-schemas.js';
import { MealParams } from '../read-schemas.js';
import { RatingsReportQuery, ratingsReportColumns } from '../report-schemas.js';
import { endpoints } from '../endpoints.js';
import { route } from '../route-contract.js';

/** The writes of a meal (a person's marking and rating, the menu's corrections, the kitchen's word) and its report. */
export const mealRoutes = {
  markMeal: route({
    ...endpoints.markMeal,
    operationId: 'markMeal',
    summary: 'Mark or unmark a meal as a favourite',
    body: MarkMealBody,
    responses: {
      200: successEnvelope(MarkMealData, {
        description: 'The marking as it now stands',
        examples: [{ status: 'success', data: exampleMarkAnswer }],
      }),
    },
  }),
  rateMeal: route({
    ...endpoints.rateMeal,
    operationId: 'rateMeal',
    summary: 'Rate a meal 1 to 5, or delete the rating with null',
    body: RateMealBody,
    responses: {
      200: successEnvelope(RateMealData, {
        description: "The meal's statistics after the change, with the caller's own rating",
        examples: [{ status: 'success', data: exampleRateAnswer }],
      }),
    },
  }),
  upsertMeals: route({
    ...endpoints.upsertMeals,
    operationId: 'upsertMeals',
    summary:
      'Insert or update meals, all or nothing (needs meals:manage at every canteen of the batch: the ones it names and the ones its meals are in now)',
    body: UpsertMealsBody,
    responses: {
      200: successEnvelope(UpsertMealsData, {
        description: 'How many meals were inserted or updated',
        examples: [{ status: 'success', data: exampleUpsertAnswer }],
      }),
    },
  }),
  withdrawMeal: route({
    ...endpoints.withdrawMeal,
    operationId: 'withdrawMeal',
    summary: 'Withdraw a meal (a menu correction): it leaves the menus; its markings and ratings stay. Idempotent',
    params: MealParams,
    responses: { 200: successEnvelope(WithdrawMealData) },
  }),
  mergeDishes: route({
    ...endpoints.mergeDishes,
    operationId: 'mergeDishes',
    summary: 'Merge dishes (renames): every serving and name of "from" moves into this dish; answers the merged dish',
    params: DishParams,
    body: MergeDishesBody,
    responses: { 200: successEnvelope(DishData) },
  }),
  setMealAvailability: route({
    ...endpoints.setMealAvailability,
    operationId: 'setMealAvailability',
    summary:
      "Say how much of a serving is left: available, few_left or sold_out. The kitchen (meals:kitchen at the meal's canteen) changes meals of its canteen's today; meals:manage there or meals:write any day. Setting the same status again changes nothing",
    params: MealParams,
    body: AvailabilityBody,
    responses: {
      200: successEnvelope(AvailabilityData, {
        description: "The serving's availability as it now stands",
        examples: [{ status: 'success', data: exampleAvailabilityAnswer }],
      }),
    },
  }),
  getRatingsReport: route({
    ...endpoints.getRatingsReport,
    operationId: 'getRatingsReport',
    summary: `Every meal a canteen served from one day to another (up to ${maxReportDays} days) with its rating count, average, median and counts per star, as CSV for spreadsheets (meals:read-reports, meals:manage or meals:write at the canteen)`,
    querystring: RatingsReportQuery,
    responses: {
      // Documented as CSV: @fastify/swagger writes a response's `content` as it is (a schema without it would be
      // listed under application/json). Fastify serializes nothing of it: the route sends a stream.
      200: {
        description: `One row per meal after a header row (UTF-8 with a byte order mark, RFC 4180, CRLF): ${ratingsReportColumns.join(', ')}`,
        content: {
          'text/csv': {
            schema: Type.String({
              description: 'CSV text; free-text fields starting with =, +, -, @, tab or CR start with an apostrophe',
            }),
            example: exampleRatingsReport,
          },
        },
      },
    },
  }),
};
