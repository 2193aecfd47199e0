import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Meal } from '@canteen-meals/domain';
import { UpsertMealsBody } from '@canteen-meals/http-contract';
import { validationMessage } from './validation-messages.js';
import { mealsFromUpsertBody } from './wire-mapping.js';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** One validator configuration for every request body and for file imports: strict, no coercion, no stripping. */
export function createSchemaValidator(): Ajv {
  // `verbose`: a failure carries its schema, so that the message can name what is allowed (`1 to 14`), not only fail.
  const ajv = new Ajv({ coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false, strict: false, verbose: true });
  addFormats(ajv);
  return ajv;
}

let upsertValidator: ValidateFunction<UpsertMealsBody> | undefined;

/** Validates an admin-upsert document (as in `PUT /admin/meals` or a JSON import file) and turns it into meals. */
export function mealsFromUpsertDocument(document: unknown): Meal[] {
  upsertValidator ??= createSchemaValidator().compile<UpsertMealsBody>(UpsertMealsBody);
  if (!upsertValidator(document)) {
    throw new TypeError(`invalid meals document: ${validationMessage(upsertValidator.errors ?? [], 'body')}`);
  }
  return mealsFromUpsertBody(document);
}
