import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { compileSerializerOnFirstUse, compileValidatorOnFirstUse } from '../src/lazy-compilers.js';
import { createSchemaValidator } from '../src/schema-validation.js';

const RateBody = Type.Object(
  { meal_id: Type.Integer(), rating: Type.Integer({ minimum: 1, maximum: 5 }) },
  { additionalProperties: false },
);

/** An ajv that counts its compilations. */
function countingAjv(): { ajv: Ajv; compiled: () => number } {
  const ajv = createSchemaValidator();
  let count = 0;
  const compile = ajv.compile.bind(ajv);
  ajv.compile = ((schema: object) => {
    count += 1;
    return compile(schema);
  }) as Ajv['compile'];
  return { ajv, compiled: () => count };
}

describe('validators compiled on first use', () => {
  it('compile nothing when handed to Fastify, and each schema once however often it validates', () => {
    const { ajv, compiled } = countingAjv();
    const validate = compileValidatorOnFirstUse(ajv)({ schema: RateBody });
    expect(compiled()).toBe(0);
    expect(validate({ meal_id: 1, rating: 5 })).toBe(true);
    expect(validate({ meal_id: 2, rating: 1 })).toBe(true);
    expect(compiled()).toBe(1);
  });

  it('give the errors of the last validation, as the compiled function would', () => {
    const { ajv } = countingAjv();
    const validate = compileValidatorOnFirstUse(ajv)({ schema: RateBody });
    const eager = createSchemaValidator().compile(RateBody);
    expect(validate({ meal_id: 1, rating: 6 })).toBe(false);
    eager({ meal_id: 1, rating: 6 });
    expect(validate.errors).toEqual(eager.errors);
    expect(validate({ meal_id: 1, rating: 2, colour: 'red' })).toBe(false);
    expect(validate.errors?.[0]?.keyword).toBe('additionalProperties');
    expect(validate({ meal_id: 1, rating: 2 })).toBe(true);
    expect(validate.errors).toBeNull();
  });
});

describe('serializers compiled on first use', () => {
  const compilerOf = () => compileSerializerOnFirstUse(undefined, undefined);
  const route = {
    schema: Type.Object({ status: Type.Literal('success'), count: Type.Integer() }),
    method: 'GET',
    url: '/x',
    httpStatus: '200',
  };

  it('write what fast-json-stringify writes: only the fields of the schema', () => {
    const serialize = compilerOf()(route);
    expect(serialize({ status: 'success', count: 3, secret: 'never sent' })).toBe('{"status":"success","count":3}');
  });

  it('do not compile a schema until its first answer', () => {
    // A schema fast-json-stringify refuses shows when it is compiled: not when handed over, at the first answer.
    const serialize = compilerOf()({
      ...route,
      schema: { type: 'object', properties: { count: { $ref: '#/definitions/missing' } } },
    });
    expect(() => serialize({ count: 1 })).toThrow();
  });
});

describe('the validator of the app', () => {
  it('is strict as before: no coercion of "5" to 5', () => {
    const validate = compileValidatorOnFirstUse(new Ajv({ coerceTypes: false }))({ schema: RateBody });
    expect(validate({ meal_id: '5', rating: 3 })).toBe(false);
  });
});
