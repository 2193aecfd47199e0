import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { FastifyServerOptions } from 'fastify';

/*
 * Fastify compiles every route's validators (ajv) and response serializers (fast-json-stringify) when the app becomes
 * ready: with about 60 routes that was most of the server's start, though a process may answer only a few
 * of them. These compilers hand Fastify a function at once and compile on its first call: the same ajv and the same
 * fast-json-stringify produce the same code, only later, and each route's code is compiled once, as before.
 */

/** What Fastify reads of a validator: it is called with the request part, and its `errors` tell why it refused. */
export interface LazyValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** A validator compiler for `app.setValidatorCompiler` that compiles `schema` with `ajv` on the first validation. */
export function compileValidatorOnFirstUse(ajv: Ajv): (route: { schema: unknown }) => LazyValidator {
  return ({ schema }) => {
    let validate: ValidateFunction | undefined;
    const lazy: LazyValidator = (data) => {
      validate ??= ajv.compile(schema as object);
      const valid = validate(data) as boolean;
      lazy.errors = validate.errors ?? null;
      return valid;
    };
    return lazy;
  };
}

/**
 * Fastify's own serializer compiler (with its options and shared schemas), called on a route's first answer of a
 * status.
 */
export function compileSerializerOnFirstUse(externalSchemas: unknown, serializerOptions: unknown) {
  const compile = SerializerSelector()(
    externalSchemas,
    serializerOptions as Parameters<ReturnType<typeof SerializerSelector>>[1],
  );
  return (route: Parameters<typeof compile>[0]) => {
    let serialize: ((document: unknown) => string) | undefined;
    return (document: unknown) => (serialize ??= compile(route))(document);
  };
}

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/**
 * Fastify's `schemaController` option: both compilers on first use. Given here rather than through
 * `setValidatorCompiler`, Fastify does not load its default validator compiler (@fastify/ajv-compiler, with a second
 * ajv and its JTD), which it would never use.
 */
export function schemasCompiledOnFirstUse(ajv: Ajv): NonNullable<FastifyServerOptions['schemaController']> {
  return {
    compilersFactory: {
      // Fastify types this as @fastify/ajv-compiler's; it calls the compiler as setValidatorCompiler's, with
      // `{ schema, method, url, httpPart }` (fastify/lib/validation.js).
      buildValidator: (() => compileValidatorOnFirstUse(ajv)) as unknown as NonNullable<
        CompilersFactory['buildValidator']
      >,
      buildSerializer: compileSerializerOnFirstUse,
    },
  };
}
