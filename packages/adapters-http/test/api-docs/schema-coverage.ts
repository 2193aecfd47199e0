import { apiPrefix, httpStatusOf, type ErrorCode } from '@canteen-meals/adapters-http';

interface Operation {
  readonly operationId?: string;
  readonly tags?: string[];
  readonly responses?: Record<
    string,
    {
      readonly content?: Record<
        string,
        { readonly schema?: ResponseSchema; readonly examples?: Record<string, unknown> }
      >;
    }
  >;
  readonly security?: unknown;
}

interface ResponseSchema {
  readonly properties?: { readonly error?: { readonly properties?: { readonly code?: { readonly enum?: string[] } } } };
}

export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, Operation>>;
}

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH']);

/** The part of Fastify's route options that this check reads, as an onRoute hook receives them. */
export interface RegisteredRoute {
  readonly method: string | readonly string[];
  readonly url: string;
  readonly schema?: {
    readonly hide?: boolean;
    readonly body?: unknown;
    readonly params?: { readonly properties?: Record<string, unknown> };
    readonly response?: Record<string, unknown>;
  };
}

/**
 * What each registered route fails to declare. Routes hidden from the document (the docs' own) are left out;
 * HEAD routes are the ones Fastify adds beside every GET.
 */
export function undeclaredSchemas(routes: readonly RegisteredRoute[]): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    const methods = [route.method].flat().filter((method) => method !== 'HEAD');
    if (methods.length === 0 || route.schema?.hide === true) continue;
    const report = (problem: string) => problems.push(`${methods.join(',')} ${route.url}: ${problem}`);
    const { schema = {} } = route;
    const statuses = Object.keys(schema.response ?? {});
    if (!statuses.some((status) => /^2(\d\d|xx)$/i.test(status))) report('no success response schema');
    for (const [, name] of route.url.matchAll(/:(\w+)/g)) {
      if (schema.params?.properties?.[name!] === undefined) report(`no params schema for :${name}`);
    }
    if (methods.some((method) => methodsWithBody.has(method)) && schema.body === undefined) report('no body schema');
    // A public route (documented with `security: []`) needs no token, so it never answers 401.
    const { security } = schema as { security?: unknown };
    const isPublic = Array.isArray(security) && security.length === 0;
    if (route.url.startsWith(`${apiPrefix}/`)) {
      for (const status of isPublic ? ['500'] : ['401', '500'])
        if (!statuses.includes(status)) report(`no ${status} error response schema`);
    }
  }
  return problems;
}

/** What the generated document gets wrong: a protected route without the bearer scheme, a code under a wrong status. */
export function documentProblems(document: OpenApiDocument): string[] {
  const problems: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const report = (problem: string) => problems.push(`${method.toUpperCase()} ${path}: ${problem}`);
      if (path.startsWith(`${apiPrefix}/`) && operation.security === undefined) report('no security requirement');
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const codes = response.content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum ?? [];
        for (const code of codes) {
          if (httpStatusOf[code as ErrorCode] !== Number(status)) report(`${code} documented under ${status}`);
        }
      }
    }
  }
  return problems;
}

/** Every error code the document lists, with the statuses it is listed under. */
export function documentedErrorCodes(document: OpenApiDocument): Map<string, Set<number>> {
  const found = new Map<string, Set<number>>();
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const codes = response.content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum ?? [];
        for (const code of codes) found.set(code, (found.get(code) ?? new Set()).add(Number(status)));
      }
    }
  }
  return found;
}
