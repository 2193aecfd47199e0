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
      return `${subject} ${allowedForm(String(params.pattern), schemaOf(first))}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${subject} ${allowedRange(schemaOf(first), first.keyword, params)}`;
    case 'enum':
      return `${subject} must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'const':
      return `${subject} must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return `${subject} ${first.message ?? 'is not valid'}`;
  }
}

interface SchemaHints {
  readonly type?: unknown;
  readonly description?: unknown;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
}

/** Ajv's `verbose` errors carry the failing schema; Fastify's error type does not name it. */
const schemaOf = (error: FastifySchemaValidationError): SchemaHints | undefined =>
  (error as { parentSchema?: SchemaHints }).parentSchema;

const calendarDays = new Set(['^[0-9]{4}-[0-9]{2}-[0-9]{2}$', '^\\d{4}-\\d{2}-\\d{2}$']);

/** What a string must look like: a calendar day said plainly, anything else by its schema's description. */
function allowedForm(pattern: string, schema: SchemaHints | undefined): string {
  const regex = new RegExp(pattern);
  if (calendarDays.has(pattern) || (regex.test('2026-03-09') && !regex.test('2026-3-9') && regex.test('today'))) {
    const words = ['today', 'tomorrow'].filter((word) => regex.test(word));
    return `must be a calendar day YYYY-MM-DD${words.length === 0 ? '' : `, ${words.join(' or ')}`}`;
  }
  const integers = integerRangeOf(regex);
  if (integers !== undefined) return integers;
  const description = typeof schema?.description === 'string' ? schema.description : undefined;
  return description === undefined
    ? 'does not have the expected form'
    : `does not have the expected form: ${description}`;
}

const probedUpTo = 10_000;

/**
 * A pattern that admits whole numbers only, written plainly (`^([1-9]|1[0-4])$` for `days`), read back as the
 * range it admits: `must be an integer from 1 to 14`. Undefined when it admits anything else, or numbers with gaps.
 */
function integerRangeOf(regex: RegExp): string | undefined {
  if (regex.test('') || regex.test('a') || regex.test('-1') || regex.test('1.5') || regex.test('01')) return undefined;
  let first: number | undefined;
  let last: number | undefined;
  for (let n = 0; n <= probedUpTo; n += 1) {
    if (!regex.test(String(n))) continue;
    if (last !== undefined && n !== last + 1) return undefined;
    first ??= n;
    last = n;
  }
  if (first === undefined || last === undefined) return undefined;
  return last === probedUpTo
    ? `must be an integer of at least ${first}, without leading zeros`
    : `must be an integer from ${first} to ${last}`;
}

/** `must be an integer from 1 to 5`: both bounds when the schema has both, else the one that failed. */
function allowedRange(schema: SchemaHints | undefined, keyword: string, params: Record<string, unknown>): string {
  const what = schema?.type === 'integer' ? 'an integer' : 'a number';
  const { minimum, maximum } = schema ?? {};
  if (typeof minimum === 'number' && typeof maximum === 'number')
    return `must be ${what} from ${minimum} to ${maximum}`;
  const limit = String(params.limit);
  switch (keyword) {
    case 'minimum':
      return `must be ${what} of at least ${limit}`;
    case 'maximum':
      return `must be ${what} of at most ${limit}`;
    case 'exclusiveMinimum':
      return `must be ${what} above ${limit}`;
    default:
      return `must be ${what} below ${limit}`;
  }
}

/** `/meals/0/name` -> `meals[0].name`; a property name is appended the same way. */
function fieldOf(instancePath: string, property?: string): string {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (property !== undefined) segments.push(property);
  return segments.reduce(
    (path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`),
    '',
  );
}
