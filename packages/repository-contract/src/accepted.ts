import type { RefusalCode, Result } from '@canteen-meals/domain';

/** The value of a decision a test expects to be accepted; a refusal fails the test with its code and message. */
export function accepted<T>(result: Result<T, RefusalCode>): T {
  if (!result.ok) throw new Error(`refused (${result.refusal.code}): ${result.refusal.message}`);
  return result.value;
}
