import { CanteenParams } from '../canteen-schemas.js';
import {
  AllDishSearchQuery,
  DishData,
  DishParams,
  DishQuery,
  DishSearchData,
  DishSearchQuery,
} from '../dish-schemas.js';
import { successEnvelope } from '../envelope.js';
import { endpoints } from '../endpoints.js';
import { route } from '../route-contract.js';

/** The public reads of dishes: one over all its servings, and the searches. */
export const dishRoutes = {
  getDish: route({
    ...endpoints.getDish,
    operationId: 'getDish',
    summary:
      "A dish over all its servings, its names and servings (newest first); with a token, the caller's own figures",
    tags: ['canteens'],
    public: true,
    params: DishParams,
    querystring: DishQuery,
    responses: { 200: successEnvelope(DishData) },
  }),
  searchDishes: route({
    ...endpoints.searchDishes,
    operationId: 'searchDishes',
    summary: "Find a canteen's dishes by any part of any of their names (case and accents do not matter), by dish id",
    tags: ['canteens'],
    public: true,
    params: CanteenParams,
    querystring: DishSearchQuery,
    responses: { 200: successEnvelope(DishSearchData) },
  }),
  searchAllDishes: route({
    ...endpoints.searchAllDishes,
    operationId: 'searchAllDishes',
    summary:
      'Find dishes across canteens (or in the one named by canteen) by any part of any of their names, by dish id; without q, every dish',
    tags: ['canteens'],
    public: true,
    querystring: AllDishSearchQuery,
    responses: { 200: successEnvelope(DishSearchData) },
  }),
};
