import { Type } from '@sinclair/typebox';
import { MealId } from './meal-schemas.js';

const ExportedMeal = {
  meal_id: MealId,
  name: Type.String(),
  served_at: Type.String({ format: 'date-time' }),
};

export const UserDataExportData = Type.Object({
  user_id: Type.String(),
  exported_at: Type.String({ format: 'date-time' }),
  markings: Type.Array(Type.Object(ExportedMeal), { description: 'The marked meals, by meal id' }),
  ratings: Type.Array(Type.Object({ ...ExportedMeal, rating: Type.Integer({ minimum: 1, maximum: 5 }) }), {
    description: "The rated meals with the user's rating, by meal id",
  }),
});

export const UserDataErasureData = Type.Object({
  markings_erased: Type.Integer({ minimum: 0 }),
  ratings_erased: Type.Integer({ minimum: 0 }),
});
