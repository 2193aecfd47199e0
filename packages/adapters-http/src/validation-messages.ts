import type { FastifySchemaValidationError } from 'fastify';

type Location = 'body' | 'querystring' | 'params' | 'headers' | string;

const nounOf: Readonly<Record<string, string>> = {
  body: 'field',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

const articleOf = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : type === 'null' ? 'null' : `a ${type}`);

/**
 * One message for people, naming the offending field: `unknown field "colour"`, `"rating" must be an integer`.
 * Schema noise (`must match a schema in anyOf`, pattern sources) stays out; the first failure is enough.
 */
export function validationMessage(errors: readonly FastifySchemaValidationError[], location: Location): string {
  const noun = nounOf[location] ?? location;
  const named = (field: string) => (noun === 'field' ? `"${field}"` : `${noun} "${field}"`);
  const alternatives = errors.find((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
  const concrete = errors.filter((error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf');
  const first = concrete[0] ?? errors[0];
  if (first === undefined) return `The ${location} is not valid.`;
  const params = first.params as Record<string, unknown>;
  const field = fieldOf(first.instancePath);
  const subject = field === '' ? `the ${location === 'querystring' ? 'query string' : location}` : named(field);

  switch (first.keyword) {
    case 'additionalProperties':
      return `unknown ${noun} "${fieldOf(first.instancePath, String(params.additionalProperty))}"`;
    case 'required':
      return `missing ${noun} "${fieldOf(first.instancePath, String(params.missingProperty))}"`;
    case 'type': {
      // A union of types (integer or null) reads as one requirement, not as several failures and an anyOf.
      const types =
        alternatives?.instancePath === first.instancePath
          ? concrete.filter((error) => error.instancePath === first.instancePath && error.keyword === 'type')
          : [first];
      return `${subject} must be ${[...new Set(types.map((error) => String((error.params as { type: unknown }).type)))].map(articleOf).join(' or ')}`;
    }
    case 'pattern':
      return `${subject} does not have the expected form`;
    case 'enum':
      return `${subject} must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'const':
      return `${subject} must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return `${subject} ${first.message ?? 'is not valid'}`;
  }
}

/** `/meals/0/name` -> `meals[0].name`; a property name is appended the same way. */
function fieldOf(instancePath: string, property?: string): string {
  const segments = instancePath.split('/').slice(1).map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (property !== undefined) segments.push(property);
  return segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`), '');
}
