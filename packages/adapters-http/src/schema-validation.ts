import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Meal } from '@canteen-meals/domain';
import { UpsertMealsBody } from '@canteen-meals/http-contract';
import { validationMessage } from './validation-messages.js';
import { closedDaysFromUpsertBody, mealsFromUpsertBody } from './wire-mapping.js';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * One validator configuration for every request body and for file imports: strict, no coercion, no stripping. The
 * schemas are the contract's constants, not input: that they are valid JSON Schema is checked once, by the test that
 * validates the OpenAPI document holding every one of them (api-docs.test.ts), not by compiling ajv's meta-schema in
 * every process (docs/decisions.md, "Start time").
 */
export function createSchemaValidator(): Ajv {
  // `verbose`: a failure carries its schema, so that the message can name what is allowed (`1 to 14`), not only fail.
  const ajv = new Ajv({
    coerceTypes: false,
    removeAdditional: false,
    useDefaults: false,
    allErrors: false,
    strict: false,
    validateSchema: false,
    verbose: true,
  });
  addFormats(ajv);
  return ajv;
}

let upsertValidator: ValidateFunction<UpsertMealsBody> | undefined;

/** Validates an admin-upsert document (as in `PUT /admin/meals` or a JSON import file) and turns it into meals. */
export function mealsFromUpsertDocument(document: unknown): Meal[] {
  return menuFromUpsertDocument(document).meals;
}

/** The meals of an admin-upsert document and the days it says are closed. */
export function menuFromUpsertDocument(document: unknown): {
  readonly meals: Meal[];
  readonly closedDays: { readonly canteenId: string; readonly date: string }[];
} {
  upsertValidator ??= createSchemaValidator().compile<UpsertMealsBody>(UpsertMealsBody);
  if (!upsertValidator(document)) {
    throw new TypeError(`invalid meals document: ${validationMessage(upsertValidator.errors ?? [], 'body')}`);
  }
  return { meals: mealsFromUpsertBody(document), closedDays: closedDaysFromUpsertBody(document) };
}
