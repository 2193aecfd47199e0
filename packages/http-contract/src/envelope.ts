import { Type, type ObjectOptions, type TSchema } from '@sinclair/typebox';
import { errorCodes } from './error-codes.js';

export const ErrorEnvelope = Type.Object(
  {
    status: Type.Literal('error'),
    error: Type.Object({
      code: Type.Union(errorCodes.map((code) => Type.Literal(code))),
      message: Type.String(),
    }),
  },
  { $id: 'ErrorEnvelope' },
);

/** `options` documents the response: a `description` and `examples` of the whole envelope. */
export function successEnvelope<T extends TSchema>(data: T, options: ObjectOptions = {}) {
  return Type.Object({ status: Type.Literal('success'), data }, options);
}
