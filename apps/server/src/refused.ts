import type { RefusalCode, Result } from '@canteen-meals/domain';

/**
 * The value of a use case's answer, for callers that have nobody to answer a refusal to (command-line tools, the
 * demo seed): a refusal becomes an error with the refusal's message, which the tool prints.
 */
export function valueOrThrow<T>(result: Result<T, RefusalCode>): T {
  if (!result.ok) throw new Error(result.refusal.message);
  return result.value;
}
